package main

import (
	"fmt"
	"io"
)

const explainShort = "usage: sdscgen explain [flags] FILE.bir NAME\n"

const explainLong = explainShort + `
Explains how buffer NAME of FILE.bir is planned: its storage group, the
bundles, ops and CPU nodes that write and read it, its live range, the
reason it is not pooled with the evidence, or its pool offset and the
buffers that reuse its bytes. A NAME that is a bundle's (and no buffer's)
explains the bundle: its HBM at its position on the graph's timeline,
the largest groups live there and why each is not pooled, and what
pooling could still take. The flags are those of sdscgen (e.g.
--budget, --no-pool, --bundle-symbolic-args=false) but -o, --plan, --svg,
--html, --dump-after and --explain, which do not apply; they may come before,
between or after FILE and NAME.

Flags:
`

func explainCommand() (*command, *mainFlags) {
	c, m := mainCommand()
	c.name, c.long, c.short = "sdscgen explain", explainLong, explainShort
	return c, m
}

// runExplain implements `sdscgen explain [flags] FILE NAME` as
// `sdscgen --explain NAME [flags] FILE`.
func (p *process) runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, m := explainCommand()
	positional, code, ok := c.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(positional) != 2 {
		return c.usageError(stderr, fmt.Sprintf("want FILE.bir NAME, got %d arguments", len(positional)))
	}
	if positional[1] == "" {
		fmt.Fprintln(stderr, "sdscgen: explain: the buffer name is empty")
		return exitUsage
	}
	set := c.set()
	// -o, --plan and --svg: config says why, as for --explain.
	for _, f := range []string{"dump-after", "explain", "version"} {
		if set[f] {
			return c.usageError(stderr, fmt.Sprintf("--%s does not apply to explain", f))
		}
	}
	m.cfg.rep.explain = positional[1]
	cfg, code, ok := m.resolve(c, positional[0], stderr)
	if !ok {
		return code
	}
	return p.generate(cfg, stdin, stdout, stderr)
}
