// Package golden holds the end-to-end cases of sdscgen: each folder under
// testdata/ is one input graph (input.bir), optional command-line
// arguments (args), and the expected plan and MLIR (*.golden), produced by
// running the built sdscgen binary exactly as a user would.
//
// Regenerate with GOLDIE_UPDATE=1 go test ./golden/ and review every diff:
// each expectation is documented by the comments in its input.bir.
package golden
