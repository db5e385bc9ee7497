package httpfake

import "testing"

func TestRoutes(t *testing.T) {
	var rs Routes[string]
	one := rs.Add(func(p string) string { return "route " + p })
	two := rs.Add(func(p string) string { return "route " + p })
	if one != "route /s/1" || two != "route /s/2" {
		t.Fatalf("added %q, %q", one, two)
	}
	for _, tc := range []struct {
		path, route string
		ok          bool
	}{
		{"/s/1", one, true},
		{"/s/1/", one, true},
		{"/s/2/v1/messages", two, true},
		{"/s/2//x", two, true},
		{"/s/3/x", "", false},
		{"/s/12/x", "", false},
		{"/s/", "", false},
		{"/x/s/1", "", false},
	} {
		r, ok := rs.Find(tc.path)
		if r != tc.route || ok != tc.ok {
			t.Errorf("Find(%q) = %q, %v; want %q, %v", tc.path, r, ok, tc.route, tc.ok)
		}
	}
}
