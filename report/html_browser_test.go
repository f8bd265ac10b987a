package report_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// browserPath finds a Chromium to drive. Without one the browser tests
// fail when SDSCGEN_REQUIRE_BROWSER=1 (scripts/test.sh sets it; it
// installs Debian's chromium) and are skipped otherwise.
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on PATH (chromium, chromium-browser, google-chrome or headless-shell): the HTML view is not tested in a browser; apt-get install chromium"
	if os.Getenv("SDSCGEN_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (SDSCGEN_REQUIRE_BROWSER=1)")
	}
	t.Skip(msg)
	return ""
}

// browser starts one headless Chromium for a test; tabs are opened from
// the returned context.
func browser(t *testing.T) context.Context {
	path := browserPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path),
		chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// Start the browser now, on this context: the browser lives as long
	// as the context it was started on.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// shotDir is where a test's screenshots go: kept (and named in the log)
// when the test fails or SDSCGEN_KEEP_SCREENSHOTS=1, removed otherwise.
func shotDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "sdscgen-html-"+t.Name()+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("SDSCGEN_KEEP_SCREENSHOTS") == "1" {
			t.Logf("screenshots kept in %s", dir)
			return
		}
		os.RemoveAll(dir)
	})
	return dir
}

// pageState is what the page's script reports (window.sdscView).
type pageState struct {
	Bundle  int     `json:"bundle"`
	Start   float64 `json:"start"`
	Parsed  float64 `json:"parsed"`
	Ready   float64 `json:"ready"`
	Painted float64 `json:"painted"`
}

// TestHTMLInBrowser opens the view of examples/attention.bir,
// examples/decoder_block.bir (with --compare: first-fit and best side by
// side) and examples/models/gpt2.bir in headless Chromium and checks:
// no console error or exception; the blocks drawn per allocator panel
// are the pooled groups of the selected bundle in that allocator's plan;
// hovering the largest block shows its name and exact bytes; searching a
// view's name highlights its storage group's block in every panel; a
// click on a bundle's bar of the timeline selects it. A screenshot of
// each page is written.
func TestHTMLInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := shotDir(t)
	for _, c := range []struct {
		file    string
		compare bool
		budget  int64
		name    string
	}{{"../examples/attention.bir", false, 0, ""}, {"../examples/decoder_block.bir", true, 0, ""}, {"../examples/models/gpt2.bir", false, 0, ""},
		// attn's pool is 448 KiB: under 256 KiB some candidates go
		// over budget and stand alone.
		{"../examples/attention.bir", false, 256 << 10, "attention_256k"}} {
		name := c.name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(c.file), ".bir")
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sdscgen.Compile(c.file, src, sdscgen.Options{Compare: c.compare, Budget: c.budget})
			if err != nil {
				t.Fatal(err)
			}
			page := filepath.Join(dir, name+".html")
			f, err := os.Create(page)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.WriteHTML(f); err != nil {
				t.Fatal(err)
			}
			f.Close()
			checkInBrowser(t, ctx, res, page, c.compare)
		})
	}
}

func checkInBrowser(t *testing.T, bctx context.Context, res *sdscgen.Result, page string, compare bool) {
	var mu sync.Mutex
	var problems []string
	tctx, cancel := chromedp.NewContext(bctx, chromedp.WithListener(func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg))
		}
	}))
	defer cancel()
	ctx, cancel2 := context.WithTimeout(tctx, 2*time.Minute)
	defer cancel2()
	// The screenshot shows the page after the hover and the search (or
	// as a failure left it). Mid-test it is of the viewport alone: a
	// full-page one resizes the page, whose resize handler rebuilds the
	// maps 150 ms later: under load that can land between focusing a map
	// and typing on it, the keys lost with the old canvas (the likely
	// cause of a zoom poll that timed out once in CI, 2026-12-03). The
	// one a failure leaves is of the whole page.
	shot, shotTaken := strings.TrimSuffix(page, ".html")+".png", false
	screenshot := func(full bool) {
		shotTaken = true
		take := chromedp.CaptureScreenshot()
		if full {
			take = chromedp.FullScreenshot(100)
		}
		if buf, err := chromedp.Run(ctx, take); err == nil {
			os.WriteFile(shot, buf, 0o644)
			t.Logf("screenshot %s", shot)
		}
	}
	defer func() {
		if !shotTaken {
			screenshot(true)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, p := range problems {
			t.Errorf("%s", p)
		}
	}()

	err := chromedp.Do(ctx, chromedp.Navigate("file://"+page))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.sdscView && window.sdscView.painted > 0`, chromedp.WithPollingInterval(20*time.Millisecond)))
	}
	var st pageState
	if err == nil {
		st, err = chromedp.Run(ctx, chromedp.Evaluate[pageState](`({bundle: sdscView.bundle, start: sdscView.start, parsed: sdscView.parsed, ready: sdscView.ready, painted: sdscView.painted})`))
	}
	if err != nil {
		t.Fatalf("loading %s: %v", page, err)
	}
	t.Logf("from navigation start: script starts at %.0f ms, data parsed at %.0f, interactive at %.0f, painted at %.0f", st.Start, st.Parsed, st.Ready, st.Painted)
	p := res.Plan
	panels := 1
	if compare {
		// WriteHTML draws best beside the plan's first-fit.
		panels = 2
		allocs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`JSON.parse(document.getElementById("data").textContent).allocators`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(allocs, ",") != "first-fit,best" {
			t.Fatalf("panels %v, want first-fit,best", allocs)
		}
	}
	bi := st.Bundle
	pooled := func(q *planner.Result) int {
		n := 0
		for _, gi := range q.Candidates(bi) {
			if q.Groups[gi].Offset >= 0 {
				n++
			}
		}
		return n
	}
	// The selected bundle is the one with the largest pool (the first
	// such).
	for k := range p.Bundles {
		if p.Bundles[k].HasPool() && p.Bundles[k].PoolSize > p.Bundles[bi].PoolSize || !p.Bundles[bi].HasPool() && p.Bundles[k].HasPool() {
			t.Errorf("bundle %s selected, %s has a larger pool", p.Graph.Bundles[bi].Name, p.Graph.Bundles[k].Name)
		}
	}
	// Blocks painted per panel at the full view (the page counts its
	// fillRect calls), and one canvas per panel.
	counts, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`document.querySelectorAll("canvas.map").length === sdscView.panels.length ? sdscView.panels.map(P => P.painted) : []`))
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != panels {
		t.Fatalf("%d panels", len(counts))
	}
	if counts[0] != pooled(p) || counts[0] == 0 {
		t.Errorf("panel 0: %d blocks, %d pooled groups in bundle %s", counts[0], pooled(p), p.Graph.Bundles[bi].Name)
	}
	if compare {
		// best's pooled set is first-fit's unless something went over
		// budget, which it does not at the default budget here: every
		// candidate is pooled in both.
		if counts[1] != int(p.Bundles[bi].Candidates.Len) {
			t.Errorf("panel 1: %d blocks, %d candidates", counts[1], int(p.Bundles[bi].Candidates.Len))
		}
	}

	// Hover the largest block of the first panel.
	g := p.Graph
	largest := -1
	for _, gi := range p.Candidates(bi) {
		pg := p.Groups[gi]
		if pg.Offset >= 0 && g.Groups[gi].Members.Len == 1 && (largest < 0 || int64(pg.End-pg.Start+1)*g.Groups[gi].Size > int64(p.Groups[largest].End-p.Groups[largest].Start+1)*g.Groups[largest].Size) {
			largest = int(gi)
		}
	}
	if largest >= 0 {
		// Bring the map into the viewport first (the timeline is above it).
		box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { document.querySelector('canvas.map[data-plan="0"]').scrollIntoView({block: "center"}); return sdscView.blockCenter(0, %d); })()`, largest)))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.MouseEvent("mouseMoved", box[0], box[1])); err != nil {
			t.Fatal(err)
		}
		// Wait for the tip (no fixed sleep: under load a frame can take
		// far longer than usual; the context's deadline is the guard).
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("tip").style.display === "block"`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
			t.Fatal(err)
		}
		tip, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("tip").style.display + "|" + document.getElementById("tip").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		name := g.Str(g.Buffers.At(int(g.Root(&g.Groups[largest]))).Name)
		want := fmt.Sprintf("(%d bytes)", g.Groups[largest].Size)
		if !strings.HasPrefix(tip, "block|"+name+": ") || !strings.Contains(tip, want) || !strings.Contains(tip, fmt.Sprintf("pool offset %d", p.Groups[largest].Offset)) {
			t.Errorf("hovering %s shows %q", name, tip)
		}
	}

	// Search a view of a pooled group (of any bundle: the page switches
	// to it), else a pooled root.
	view, group := "", -1
	for gi := range g.Groups {
		if p.Groups[gi].Offset < 0 {
			continue
		}
		for _, m := range g.Members(&g.Groups[gi]) {
			if m != g.Root(&g.Groups[gi]) && view == "" {
				view, group = g.Str(g.Buffers.At(int(m)).Name), gi
			}
		}
	}
	if view == "" {
		t.Logf("no pooled view: searching a pooled root")
		for _, gi := range p.Candidates(bi) {
			if p.Groups[gi].Offset >= 0 {
				group = int(gi)
				break
			}
		}
		view = g.Str(g.Buffers.At(int(g.Root(&g.Groups[group]))).Name)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("search")), chromedp.SendKeys(chromedp.ID("search"), view+"\r")); err != nil {
		t.Fatal(err)
	}
	type found struct {
		HL      []int  `json:"hl"`
		Msg     string `json:"msg"`
		Explain string `json:"explain"`
	}
	// The explanations are unpacked in the background: wait for the text.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(t => t.length > 0 && !t.startsWith("(unpacking"))(document.getElementById("explain").textContent)`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	// Wait until every panel has painted the highlight (or give up at
	// the context's deadline, a guard only).
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`sdscView.panels.every(P => P.hlPainted === 1)`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("search %q: the highlight was not painted in every panel: %v", view, err)
	}
	// Per panel: the highlighted group if its block was painted with the
	// highlight, else -1.
	fd, err := chromedp.Run(ctx, chromedp.Evaluate[found](`({hl: sdscView.panels.map(P => P.hlPainted === 1 ? sdscView.hl : -1), msg: document.getElementById("msg").textContent, explain: document.getElementById("explain").textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	hl, msg, explain := fd.HL, fd.Msg, fd.Explain
	if now, err := chromedp.Run(ctx, chromedp.Evaluate[int](`sdscView.bundle`)); err != nil || now != int(p.Groups[group].Bundle) {
		t.Errorf("search %q: bundle %d selected, want %d (%v)", view, now, p.Groups[group].Bundle, err)
	}
	if len(hl) != len(counts) {
		t.Errorf("search %q: highlighted %v, want group %d in each of %d panels (message %q)", view, hl, group, len(counts), msg)
	}
	for _, h := range hl {
		if h != group {
			t.Errorf("search %q: highlighted group %d, want %d", view, h, group)
		}
	}
	if !strings.Contains(explain, "storage group "+g.Str(g.Buffers.At(int(g.Root(&g.Groups[group]))).Name)) {
		t.Errorf("search %q: explain panel %q", view, explain)
	}
	screenshot(false)

	// Zoom in with the keyboard, on the map of the bundle now shown
	// (focused until it holds the focus: the search may have switched
	// bundles and rebuilt the maps).
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(c => { if (c) c.focus(); return c !== null && document.activeElement === c; })(document.querySelector('canvas.map[data-plan="0"]'))`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("focusing the map: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("+"), chromedp.KeyEvent("+")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`sdscView.view.x1 - sdscView.view.x0 < 0.7 * (sdscView.full.x1 - sdscView.full.x0)`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("zooming with + +: %v", err)
	}
	zoomed, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[sdscView.view.x1 - sdscView.view.x0, sdscView.full.x1 - sdscView.full.x0]`))
	if err != nil {
		t.Fatal(err)
	}
	// Two zoom steps of 0.8 each: 64% of the steps in view.
	if math.Abs(zoomed[0]-0.64*zoomed[1]) > 1e-9*zoomed[1] {
		t.Errorf("after two '+': %v of %v steps in view, want 64%%", zoomed[0], zoomed[1])
	}

	// The timeline (the plan's footprint, one bar per top-level node):
	// its legend names the reasons of the standalone bytes, in table
	// order, then the pool; hovering the bar of the position with the
	// most reasons live (the first such) shows its node, its standalone
	// bytes and, per reason live there, its bytes, then the pool and the
	// sum.
	f := p.Footprint()
	reasons, byReason := p.StandaloneByReason(f)
	var legend []string
	for _, r := range reasons {
		legend = append(legend, r.String())
	}
	legend = append(legend, "pool")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#timeline .legend [data-reason]"), e => e.getAttribute("data-reason"))`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != strings.Join(legend, ",") {
		t.Errorf("timeline legend %v, want %v", got, legend)
	}
	pos, most := 0, -1
	for k := range f.Nodes {
		live := 0
		for _, row := range byReason {
			if row[k] > 0 {
				live++
			}
		}
		if live > most {
			pos, most = k, live
		}
	}
	byteText := func(n int64) string { return fmt.Sprintf("%s (%d bytes)", report.HumanSize(n), n) }
	kind := "bundle "
	if f.Nodes[pos].CPU {
		kind = "CPU node "
	}
	lines := []string{fmt.Sprintf("position %d: %s%s", pos, kind, planner.NodeName(g, f.Nodes[pos])), "standalone " + byteText(f.Standalone[pos])}
	for k, r := range reasons {
		if v := byReason[k][pos]; v > 0 {
			lines = append(lines, "  "+r.String()+" "+byteText(v))
		}
	}
	lines = append(lines, "pool "+byteText(f.Pool(pos)), "HBM "+report.HumanSize(f.HBM(pos)))
	if pos == f.PeakPosition {
		lines[len(lines)-1] += " (the peak)"
	}
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { document.getElementById("timeline").scrollIntoView({block: "center"}); return sdscView.timelineCenter(%d); })()`, pos)))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent("mouseMoved", at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	tipText, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("tip").style.display === "block" ? document.getElementById("tip").textContent : ""`))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(lines, "\n"); tipText != want {
		t.Errorf("hovering timeline position %d shows\n%s\nwant\n%s", pos, tipText, want)
	}

	// Clicking the graph-input key hides the inputs: the y axis then
	// spans the largest rest of a bar (its other reasons and its pool);
	// a second click shows them again, and the axis spans the peak and
	// the baselines once more.
	for k, r := range reasons {
		if r != planner.GraphInput {
			continue
		}
		var rest, full int64 = 1, f.Peak
		for pos := range f.Nodes {
			rest = max(rest, f.HBM(pos)-byReason[k][pos])
		}
		full = max(full, f.NoPoolingPeak, f.ResidentPoolsPeak)
		for _, a := range p.Compare {
			full = max(full, a.PeakBytes)
		}
		for _, want := range []int64{rest, full} {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#timeline .legend [data-reason="graph-input"]`))); err != nil {
				t.Fatal(err)
			}
			scale, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`sdscView.timelineScale()`))
			if err != nil {
				t.Fatal(err)
			}
			if scale != float64(want) {
				t.Errorf("timeline scale %v after a click on graph-input, want %d", scale, want)
			}
		}
	}

	// Clicking the last bundle's bar selects that bundle.
	if len(g.Bundles) > 1 {
		last := len(g.Bundles) - 1
		pos := f.Position(last)
		at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { document.getElementById("timeline").scrollIntoView({block: "center"}); return sdscView.timelineCenter(%d); })()`, pos)))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.MouseEvent("mouseMoved", at[0], at[1]),
			chromedp.MouseEvent("mousePressed", at[0], at[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
			chromedp.MouseEvent("mouseReleased", at[0], at[1], chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
			t.Fatal(err)
		}
		sel, err := chromedp.Run(ctx, chromedp.Evaluate[int](`sdscView.bundle`))
		if err != nil {
			t.Fatal(err)
		}
		if sel != last {
			t.Errorf("timeline click at position %d selected bundle %d, want %d", pos, sel, last)
		}
	}
}
