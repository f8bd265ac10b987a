package frontend

import (
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKeywordsDocumented holds the table of keywords to the reserved words
// of docs/bundle-ir.md (section 2.1), in order.
func TestKeywordsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/bundle-ir.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, "**Keywords** are reserved")
	if i < 0 {
		t.Fatal("docs/bundle-ir.md: no **Keywords** paragraph")
	}
	s = s[i:]
	open := strings.IndexByte(s, '`')
	end := strings.IndexByte(s[open+1:], '`')
	if open < 0 || end < 0 {
		t.Fatal("docs/bundle-ir.md: the keywords are not in backquotes")
	}
	documented := strings.Fields(s[open+1 : open+1+end])
	var table []string
	for k := kwGraph; k <= kwLast; k++ {
		table = append(table, keywords[k].text)
	}
	if !slices.Equal(documented, table) {
		t.Errorf("docs/bundle-ir.md lists the keywords\n%v\nthe table holds\n%v", documented, table)
	}
}

// refTypes are the structs of the reference grammar (ast.go).
var refTypes = []any{refFile{}, refGraph{}, refDecl{}, refBufferDecl{}, refListDecl{}, refListName{},
	refAliasDecl{}, refRenameDecl{}, refNode{}, refLeaf{}, refKind{}, refCores{}, refFused{}, refLoop{},
	refAccess{}, refStep{}, refSplit{}, refInts{}}

var (
	quotedWord = regexp.MustCompile(`'([a-z]+)'`)
	// A name that may be a keyword when the tokens after it say so.
	keywordName = regexp.MustCompile(`\(\?= Keyword (\(([^()]*)\)|'[^']*')\)`)
)

// TestGrammarKeywords holds the participle grammar's tags, literal strings,
// to the table of keywords: every word they quote is a keyword and every
// keyword is quoted; the lookahead that lets a keyword be a name lists
// exactly the keywords the hand-written parser accepts after it there (the
// sets derived from the table); and the clauses of a leaf and of an access
// come in the table's order.
func TestGrammarKeywords(t *testing.T) {
	// The keywords that may follow a keyword used as each name, per
	// field of the grammar (the parser's declName and refName).
	want := map[string]kwSet{
		"refGraph.Name":       0,
		"refBufferDecl.Name":  0,
		"refListName.Name":    endKws,
		"refAliasDecl.View":   0,
		"refAliasDecl.Target": endKws,
		"refRenameDecl.From":  0,
		"refRenameDecl.To":    endKws,
		"refLeaf.Name":        leafClauses,
		"refFused.Name":       0,
		"refLoop.Name":        kws(kwCount),
		"refAccess.Name":      endKws | accessEnd,
	}
	quoted := map[string]bool{}
	for _, v := range refTypes {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			f := rt.Field(i)
			tag := f.Tag.Get("parser")
			for _, m := range quotedWord.FindAllStringSubmatch(tag, -1) {
				if keywordSlow(m[1]) == kwNone {
					t.Errorf("%s.%s quotes %q, which is no keyword of the table", rt.Name(), f.Name, m[1])
				}
				quoted[m[1]] = true
			}
			field := rt.Name() + "." + f.Name
			m := keywordName.FindStringSubmatch(tag)
			if m == nil {
				continue
			}
			set, ok := want[field]
			if !ok {
				t.Errorf("%s: a keyword may be a name here, which the test does not know", field)
				continue
			}
			var got kwSet
			for _, w := range quotedWord.FindAllStringSubmatch(m[1], -1) {
				got |= 1 << keywordSlow(w[1])
			}
			if got != set {
				t.Errorf("%s: the grammar looks ahead for %s, the parser for %s", field, kwSetText(got), kwSetText(set))
			}
			delete(want, field)
		}
	}
	for field := range want {
		t.Errorf("%s: the grammar has no lookahead for a keyword as the name", field)
	}
	for k := kwGraph; k <= kwLast; k++ {
		if !quoted[keywords[k].text] {
			t.Errorf("keyword %q is in no rule of the grammar", keywords[k].text)
		}
	}
	// The clauses in the order of the fields that hold them.
	for _, c := range []struct {
		v    any
		role kwRole
	}{{refLeaf{}, roleLeaf}, {refAccess{}, roleAccess}} {
		var got, order []string
		rt := reflect.TypeOf(c.v)
		for i := range rt.NumField() {
			f := rt.Field(i)
			tag := f.Tag.Get("parser")
			if tag == "@@?" { // a clause of its own struct
				tag = ""
				st := f.Type.Elem()
				for j := range st.NumField() {
					tag += st.Field(j).Tag.Get("parser")
				}
			}
			for _, m := range quotedWord.FindAllStringSubmatch(tag, -1) {
				if k := keywordSlow(m[1]); keywords[k].role == c.role && f.Name != "Name" && f.Name != "Kind" {
					got = append(got, m[1])
				}
			}
		}
		for o := 1; o <= math.MaxInt8; o++ {
			for k := kwGraph; k <= kwLast; k++ {
				if keywords[k].role == c.role && int(keywords[k].order) == o {
					order = append(order, keywords[k].text)
				}
			}
		}
		if !slices.Equal(got, order) {
			t.Errorf("%s: the grammar's clauses are %v, the table's %v", rt.Name(), got, order)
		}
	}
}

func kwSetText(s kwSet) string {
	var w []string
	for k := kwGraph; k <= kwLast; k++ {
		if s&(1<<k) != 0 {
			w = append(w, keywords[k].text)
		}
	}
	return "{" + strings.Join(w, " ") + "}"
}

// TestContinuationWords pins the continuation words that the table of
// keywords now derives, each reasoned from the grammar of
// docs/bundle-ir.md (section 2.2): after an op's name come its clauses in
// order, kind and cores only on an op; after an access, a comma, its
// clauses in order, and writes when it is one of the reads.
func TestContinuationWords(t *testing.T) {
	for _, c := range []struct {
		a       after
		leaf    kw
		inReads bool
		want    string
	}{
		{afterLeafName, kwOp, false, `"kind", "cores", "reads", "writes" or the end of the op`},
		{afterLeafName, kwCPU, false, `"reads", "writes" or the end of the cpu node`},
		{afterKind, kwOp, false, `"cores", "reads", "writes" or the end of the op`},
		{afterCores, kwOp, false, `"reads", "writes" or the end of the op`},
		{afterAccess, kwOp, true, `",", "step", "split", "writes" or the end of the op`},
		{afterAccess, kwCPU, false, `",", "step", "split" or the end of the cpu node`},
		{afterStep, kwOp, true, `",", "split", "writes" or the end of the op`},
		{afterSplit, kwOp, false, `"," or the end of the op`},
		{afterSizeInt, kwNone, false, `"bytes" or the end of the declaration`},
		{afterNothing, kwNone, false, ``},
	} {
		if got := continuation(c.a, c.leaf, c.inReads); got != c.want {
			t.Errorf("continuation(%d, %s, %v) = %s, want %s", c.a, kwText(c.leaf), c.inReads, got, c.want)
		}
	}
}

// TestAttributeRows checks the rows of the op attributes (see
// keywordRow.set): a leaf clause of an op only, placed between cores and
// reads, whose value has somewhere to go.
func TestAttributeRows(t *testing.T) {
	for k := kwGraph; k <= kwLast; k++ {
		r := keywords[k]
		if r.arg != argInt {
			if r.set != nil {
				t.Errorf("%s: set on a keyword that is no attribute", r.text)
			}
			continue
		}
		if r.role != roleLeaf || !r.opOnly || r.set == nil ||
			r.order <= keywords[kwCores].order || r.order >= keywords[kwReads].order {
			t.Errorf("%s: an attribute is a leaf clause of an op only, between cores and reads, with set", r.text)
		}
	}
}

// TestNamesNoBuffer: in the grammar, the name after `op`, `cpu`,
// `fused` and `loop` declares a node, the name after `kind` is a kind;
// every other keyword's name (a declaration's, a list's, an access's)
// may be a buffer's. The scanning goroutine numbers only those.
func TestNamesNoBuffer(t *testing.T) {
	want := map[kw]bool{kwOp: true, kwCPU: true, kwFused: true, kwLoop: true, kwKind: true}
	for k := kwGraph; k <= kwLast; k++ {
		if got := namesNoBuffer(k); got != want[k] {
			t.Errorf("namesNoBuffer(%q) = %v, want %v", keywords[k].text, got, want[k])
		}
	}
}
