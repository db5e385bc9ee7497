package common

import "github.com/muthuishere/toolnexus-conformance/internal/kernel"

// Toolkits is the toolkits the scenario built: the one the next run uses, every handle
// (closed when the attempt ends) and the tool names of each repeated build.
type Toolkits struct {
	a       *kernel.Attempt
	Current string     // the toolkit the next run uses
	All     []string   // every toolkit built, closed when the attempt ends
	Builds  [][]string // the sorted tool names of each repeated build
}

func (s *Toolkits) Init(a *kernel.Attempt) { s.a = a }

// CloseEarly closes every toolkit in the adapter, before the fakes they use are closed.
func (s *Toolkits) CloseEarly() {
	if p := s.a.Proc(); p != nil && !p.IsBroken() {
		for _, tk := range s.All {
			_, _ = p.Call(s.a.Ctx(), "toolkit.close", map[string]any{"toolkit": tk})
		}
	}
}

// TK is the attempt's toolkits.
func TK(a *kernel.Attempt) *Toolkits { return kernel.Get[Toolkits](a) }

// Create sends toolkit.create with args and the options other areas set with the kernel
// (the skills area's skillsDir, …: the area that builds stays blind to them), and makes the
// new toolkit the one the next run uses.
func (s *Toolkits) Create(args map[string]any) error {
	for k, v := range kernel.OptionsOf(s.a, "toolkit.create") {
		args[k] = v
	}
	h := s.a.Handle("t")
	args["handle"] = h
	if _, err := s.a.Must("toolkit.create", args); err != nil {
		return err
	}
	s.Current = h
	s.All = append(s.All, h)
	return nil
}
