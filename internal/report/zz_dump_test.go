package report
import ("os";"testing")
func TestZZDump(t *testing.T){ f,_:=os.Create("/tmp/synthetic.html"); defer f.Close(); HTML(f, testCatalogue, richRun()) }
