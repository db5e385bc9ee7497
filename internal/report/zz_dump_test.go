package report
import ("os";"testing";"bytes";"github.com/santhosh-tekuri/jsonschema/v6")
func TestZZDump(t *testing.T){ f,_:=os.Create("/tmp/synthetic.html"); defer f.Close(); HTML(f, testCatalogue, richRun()) }
func TestZZReal(t *testing.T){ b,_:=os.ReadFile("/tmp/rep/results.json"); d,err:=jsonschema.UnmarshalJSON(bytes.NewReader(b)); if err!=nil{t.Fatal(err)}; if err:=resultsSchema(t).Validate(d);err!=nil{t.Fatal(err)} }
