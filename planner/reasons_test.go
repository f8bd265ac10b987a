package planner_test

import (
	"os"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// TestReasonTableDocs: the reasons table of docs/bundle-ir.md §3.1 lists
// exactly planner.ReasonTable(), in its order, with its meanings.
func TestReasonTableDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/bundle-ir.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "| reason |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| `"):
			rows = append(rows, line)
		case in:
			in = false
		}
	}
	var want []string
	for _, r := range planner.ReasonTable() {
		want = append(want, "| `"+r.Name+"` | "+r.Meaning+" |")
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/bundle-ir.md reasons table:\n%s\nwant (planner.ReasonTable()):\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// TestReasonIndex: Index is the precedence position; Pooled has none.
func TestReasonIndex(t *testing.T) {
	if planner.Disabled.Index() != 0 || planner.OverBudget.Index() != len(planner.ReasonTable())-1 || planner.Pooled.Index() != -1 || planner.Reason(200).Index() != -1 {
		t.Errorf("Index: disabled %d, over-budget %d, pooled %d", planner.Disabled.Index(), planner.OverBudget.Index(), planner.Pooled.Index())
	}
	table := planner.ReasonTable()
	for i, r := range planner.Reasons() {
		if r.Index() != i || table[i].Evidence == "" || table[i].Meaning == "" || r.Info().Name != table[i].Name || r.String() != table[i].Name {
			t.Errorf("%s: index %d, want %d; every entry needs a meaning and an evidence", r, r.Index(), i)
		}
	}
	if len(table) != planner.NumReasons || planner.Pooled.Info().Name != "" {
		t.Errorf("%d reasons, NumReasons %d; Pooled's entry %+v", len(table), planner.NumReasons, planner.Pooled.Info())
	}
	// What ReasonTable and Reasons return are copies.
	table[0].Name, planner.Reasons()[0] = "changed", planner.Pooled
	if planner.Disabled.String() != "disabled" || planner.ReasonTable()[0].Name != "disabled" || planner.Reasons()[0] != planner.Disabled {
		t.Errorf("the reason table changed through a copy")
	}
}
