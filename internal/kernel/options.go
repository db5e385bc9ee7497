package kernel

import (
	"fmt"
	"maps"
)

// Options are the arguments areas add to an op another area sends (client.create's retries,
// toolkit.create's skillsDir): an area sets them here and the sending area reads them, so
// neither imports the other. A key must be one of the op's arguments in the composed protocol
// (each declared by exactly one fragment), and once the op was sent for good (Seal) a late
// option is a harness error, not an option silently dropped.
type Options struct {
	byOp   map[string]map[string]any
	sealed map[string]bool
}

func (o *Options) Init(*Attempt) { o.byOp, o.sealed = map[string]map[string]any{}, map[string]bool{} }

// SetOption sets one argument of op for the scenario's next (or only) op call.
func SetOption(a *Attempt, op, key string, v any) error {
	o := Get[Options](a)
	if o.sealed[op] {
		return fmt.Errorf("harness: the scenario sets %s's %q after %s was sent", op, key, op)
	}
	if s := a.sc.env.Supports; s != nil && s.Protocol != nil {
		if _, ok := s.Protocol.ArgOwner(op, key); !ok {
			return fmt.Errorf("harness: %q is no argument of %s in any area's protocol fragment", key, op)
		}
	}
	if o.byOp[op] == nil {
		o.byOp[op] = map[string]any{}
	}
	o.byOp[op][key] = v
	return nil
}

// OptionsOf are the arguments areas set for op, a copy.
func OptionsOf(a *Attempt, op string) map[string]any { return maps.Clone(Get[Options](a).byOp[op]) }

// Seal says op was sent for good: its options can no longer change what it did.
func Seal(a *Attempt, op string) { Get[Options](a).sealed[op] = true }
