package report

// The memory map's geometry and helpers, visible to the external tests
// only (they check drawn SVGs against the same scale).
const (
	SVGWidth   = svgWidth
	PlotLeft   = plotLeft
	PlotTop    = plotTop
	PlotHeight = plotHeight
	PlotWidth  = plotWidth
	MinHeight  = minHeight
)

type Scale = svgScale

var (
	ScaleOf   = scaleOf
	TextWidth = textWidth
	Ticks     = ticks
	TickLabel = tickLabel
)
