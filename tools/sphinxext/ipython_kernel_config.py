# IPython kernel configuration for the book build (tools/sphinxext/coalg_book.py puts it in
# the build's private IPYTHONDIR, so it applies to every chapter's kernel and nowhere else).
#
# Figures leave each cell twice: as SVG, which the web page shows (sharp at any zoom and on
# HiDPI screens), and as a PNG at twice the resolution, which the PDF uses (LaTeX cannot
# include SVG). Both come from the same matplotlib figure.
c = get_config()  # noqa: F821 (IPython's config loader provides it)
c.InlineBackend.figure_formats = {"svg", "retina"}
c.InlineBackend.print_figure_kwargs = {"bbox_inches": "tight"}
c.InlineBackend.rc = {
    # Tick labels and axis labels readable beside the body text.
    "font.size": 11,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "figure.dpi": 100,
    # Keep the text of an SVG as outlines: it looks the same in every browser.
    "svg.fonttype": "path",
    "svg.hashsalt": "coalg-book",
}
