"""The lab's court figure: the court to scale with everything drawn on it, and its views.

From the bottom up: the court (``court_glyphs``), the relief of a surface that is not flat
(``surface_glyphs``: shaded heights, friction, grade arrows; redrawn in place for the same court
with another grade or crown, ``show_court``), the noisy copies' density map with
its colour bar, the court's labels (above the density, so zone values stay readable), the legal
starts, the shot's paths, the marks of discs the rules removed, the discs with their value labels,
the discs' numbers, the discs of a shot in motion, the event marks, and the aim (start, arrow, tip, and on a surface
that is not flat the predicted path). Every source the page's scripts or tests look up has a name:
``discs``, ``labels``, ``ghosts``, ``paths``, ``marks``, ``density``, ``tip``, ``aim_line``,
``aim_path``, ``start_point``, ``relief`` and ``grade_arrows`` (empty on a flat court);
the figure is ``court`` and carries the disc radius (m) as its first tag, for the page's hit test.

The frame keeps one scale across and along (discs stay round): every view box is widened about its
centre to the frame's aspect (``to_aspect``). A court whose discs would be smaller than
``MIN_DISC_PIXELS`` in the whole view (the deck, the horse collar table) opens on its scoring end.
"""

from __future__ import annotations

from bokeh.models import ColumnDataSource, LogColorMapper, NumeralTickFormatter, Range1d
from bokeh.models.annotations import ColorBar
from bokeh.plotting import figure

from shuffle_sim.court import Court
from shuffle_sim.court.shapes import diagram_points
from shuffle_sim.lab.court_glyphs import court_extent, draw_court, draw_labels
from shuffle_sim.lab.starts import Start
from shuffle_sim.lab.surface_glyphs import ReliefGlyphs

#: The court's frame on the page (CSS pixels): with its title, axes and colour bars the figure fits
#: a window 768 px high.
FRAME_HEIGHT = 600
FRAME_WIDTH = 460
#: Room for the y axis's tick labels and title (CSS pixels), whatever the labels: the figure keeps
#: its width while the view moves (during a shot's animation), so nothing beside it shifts.
AXIS_ROOM = 64
#: Courts whose discs would look smaller than this (pixels across) in the whole view open on their scoring end.
MIN_DISC_PIXELS = 16
#: Around an end's scoring diagram, this many disc diameters of court are shown.
VIEW_MARGIN_DIAMETERS = 2.0
WHOLE = "whole court"
#: A disc's number sits this many pixels right of and above its centre.
NUMBER_OFFSET = 7
#: The density map: a violet ramp, unlike every zone tint and the discs' colours, opaque enough to
#: read at its faintest; on a log scale, so that the tails show beside the busiest cell.
DENSITY_PALETTE = [
    "#" + "".join(f"{round(a + f * (b - a)):02x}" for a, b in ((171, 49), (130, 0), (224, 99), (200, 250)))
    for f in (k / 255 for k in range(256))
]
EMPTY_DENSITY: dict[str, list] = dict(image=[], x=[], y=[], dw=[], dh=[])


def to_aspect(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``box`` (xmin, ymin, xmax, ymax) widened about its centre to the frame's aspect."""
    x0, y0, x1, y1 = box
    scale = max((x1 - x0) / FRAME_WIDTH, (y1 - y0) / FRAME_HEIGHT)
    cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    hw, hh = 0.5 * scale * FRAME_WIDTH, 0.5 * scale * FRAME_HEIGHT
    return cx - hw, cy - hh, cx + hw, cy + hh


def view_names(court: Court) -> list[str]:
    return [WHOLE] + [f"{end} end" for end in court.ends]


def view_box(court: Court, view: str) -> tuple[float, float, float, float]:
    """The region a view shows, at the frame's aspect: the whole court, or an end's scoring
    diagram (its lines and scoring zones) with ``VIEW_MARGIN_DIAMETERS`` of court around it."""
    whole = court_extent(court)
    if view == WHOLE or not court.ends:
        return to_aspect(whole)
    xs, ys = diagram_points(court, view.removesuffix(" end"))
    if not xs:
        return to_aspect(whole)
    pad = VIEW_MARGIN_DIAMETERS * 2 * court.disc_radius
    box = (
        max(min(xs) - pad, whole[0]),
        max(min(ys) - pad, whole[1]),
        min(max(xs) + pad, whole[2]),
        min(max(ys) + pad, whole[3]),
    )
    return to_aspect(box)


def opening_view(court: Court) -> str:
    """The view a court opens on: the whole court, unless its discs would be too small to handle
    there; then its scoring end."""
    x0, _, x1, _ = view_box(court, WHOLE)
    pixels = 2 * court.disc_radius / (x1 - x0) * FRAME_WIDTH
    return WHOLE if pixels >= MIN_DISC_PIXELS or not court.ends else f"{court.end} end"


class CourtFigure:
    """The figure and its named sources (module docstring)."""

    def __init__(self, court: Court, starts: list[Start], title: str):
        self.court = court
        self.view = opening_view(court)
        self.fig = self._empty_figure(title)
        self.extent = list(court_extent(court))
        texts = draw_court(self.fig, court, with_labels=False)
        self.relief = ReliefGlyphs(self.fig)
        self.relief.show(court)
        self._add_density()
        draw_labels(self.fig, texts)
        self._add_starts_and_paths(starts)
        self._add_ghosts()
        self._add_discs()
        self._add_marks()
        self._add_aim()

    def _empty_figure(self, title: str) -> figure:
        """The figure on the opening view, its tools and axes, with the disc radius as its first tag."""
        x0, y0, x1, y1 = view_box(self.court, self.view)
        fig = figure(
            name="court",
            frame_height=FRAME_HEIGHT,
            frame_width=FRAME_WIDTH,
            x_range=(x0, x1),  # type: ignore[arg-type]  # bokeh's stub omits the (start, end) figure takes
            y_range=(y0, y1),  # type: ignore[arg-type]
            tools="wheel_zoom,reset,save",
            active_scroll="wheel_zoom",
            title=title,
            x_axis_label="x (m)",
            y_axis_label="y (m)",
            output_backend="canvas",
            min_border_left=AXIS_ROOM,
            styles={"flex": "0 0 auto"},  # keeps its size beside the panel, which wraps instead
        )
        fig.grid.visible = False
        fig.background_fill_color = "#fafafa"
        fig.tags = [float(self.court.disc_radius)]
        return fig

    def _add_density(self) -> None:
        """The noisy copies' density map (empty until a shot is sampled) and its colour bar."""
        fig = self.fig
        self.density = ColumnDataSource(name="density", data=dict(EMPTY_DENSITY))
        self.mapper = LogColorMapper(palette=DENSITY_PALETTE, low=1e-4, high=1.0, nan_color=(0, 0, 0, 0))
        fig.image(image="image", x="x", y="y", dw="dw", dh="dh", source=self.density, color_mapper=self.mapper)  # type: ignore[call-arg]  # not in bokeh's stub
        self.colour_bar = ColorBar(
            color_mapper=self.mapper,
            name="density_legend",
            visible=False,
            height=10,
            orientation="horizontal",
            title="noisy copies resting in a cell (share of all)",
            formatter=NumeralTickFormatter(format="0.[00]%"),
            title_text_font_size="10px",
            major_label_text_font_size="9px",
            padding=4,
        )
        fig.add_layout(self.colour_bar, "below")

    def _add_starts_and_paths(self, starts: list[Start]) -> None:
        """The legal starts (green) and the shot's paths (dotted, in the discs' colours)."""
        fig = self.fig
        fig.multi_line(
            [s.polyline()[0] for s in starts],
            [s.polyline()[1] for s in starts],
            line_color="#2e7d32",
            line_width=3,
            line_alpha=0.6,
        )
        self.paths = ColumnDataSource(name="paths", data=dict(xs=[], ys=[], colour=[]))
        fig.multi_line(
            "xs", "ys", source=self.paths, line_color="colour", line_width=1.5, line_alpha=0.8, line_dash="dotted"
        )

    def _add_ghosts(self) -> None:
        """The marks of discs the rules removed: a dashed outline and why."""
        fig, r = self.fig, self.court.disc_radius
        self.ghosts = ColumnDataSource(name="ghosts", data=dict(x=[], y=[], text=[], why=[]))
        self.ghosts_renderer = fig.ellipse(
            "x",
            "y",
            width=2 * r,
            height=2 * r,
            source=self.ghosts,
            fill_alpha=0.0,
            line_color="#424242",
            line_dash="dashed",
            line_width=1.5,
        )
        self.ghost_labels = fig.text(
            "x",
            "y",
            text="text",
            source=self.ghosts,
            text_align="center",
            text_baseline="middle",
            text_font_size="8px",
            text_color="#424242",
        )

    def _add_discs(self) -> None:
        """The board's discs (selectable), their value labels, and the discs of a shot in motion."""
        fig, r = self.fig, self.court.disc_radius
        self.discs = ColumnDataSource(name="discs", data=dict(x=[], y=[], team=[], colour=[], stamp=[]))
        self.board_renderer = fig.ellipse(  # type: ignore[call-arg]  # selection_line_width: not in bokeh's stub
            "x",
            "y",
            width=2 * r,
            height=2 * r,
            source=self.discs,
            fill_color="colour",
            line_color="black",
            line_width=1.2,
            fill_alpha=0.95,
            name="board",
            selection_line_color="#d50000",
            selection_line_width=3.0,
            nonselection_fill_alpha=0.95,
            nonselection_line_alpha=1.0,
        )
        self.labels = ColumnDataSource(name="labels", data=dict(x=[], y=[], text=[], text_color=[], number=[]))
        self.labels_renderer = fig.text(
            "x",
            "y",
            text="text",
            source=self.labels,
            text_color="text_color",
            text_align="center",
            text_baseline="middle",
            text_font_size="10px",
            text_font_style="bold",
        )
        # Each disc's number (as the judgement table, the messages and the advice name it), just
        # outside its upper right edge.
        self.numbers_renderer = fig.text(
            "x",
            "y",
            text="number",
            source=self.labels,
            x_offset=NUMBER_OFFSET,
            y_offset=-NUMBER_OFFSET,
            text_align="left",
            text_baseline="bottom",
            text_font_size="9px",
            text_color="#263238",
            name="disc_numbers",
        )
        self.moving = ColumnDataSource(data=dict(x=[], y=[], colour=[]))
        self.moving_renderer = fig.ellipse(
            "x",
            "y",
            width=2 * r,
            height=2 * r,
            source=self.moving,
            fill_color="colour",
            line_color="black",
            visible=False,
        )

    def _add_marks(self) -> None:
        """The event marks of the shot's paths (a cross and the event's kind)."""
        fig = self.fig
        self.marks = ColumnDataSource(name="marks", data=dict(x=[], y=[], t=[], kind=[], alpha=[]))
        fig.scatter("x", "y", source=self.marks, marker="x", size=11, line_width=2, line_color="#d50000", alpha="alpha")
        fig.text(
            "x",
            "y",
            text="kind",
            source=self.marks,
            text_alpha="alpha",
            text_font_size="9px",
            x_offset=6,
            y_offset=-6,
            text_color="#b71c1c",
        )

    def _add_aim(self) -> None:
        """The aim: the start, the arrow and its tip, and on a surface that is not flat the predicted
        path (dashed, curving with the grade) to where the disc would rest on an empty court."""
        fig = self.fig
        self.aim_line = ColumnDataSource(name="aim_line", data=dict(x0=[], y0=[], x1=[], y1=[]))
        fig.segment("x0", "y0", "x1", "y1", source=self.aim_line, line_color="#1b5e20", line_width=2.5)
        self.aim_path = ColumnDataSource(name="aim_path", data=dict(x=[], y=[]))
        fig.line("x", "y", source=self.aim_path, line_color="#1b5e20", line_width=2, line_dash="dashed")
        self.start_point = ColumnDataSource(name="start_point", data=dict(x=[], y=[]))
        fig.scatter(
            "x",
            "y",
            source=self.start_point,
            marker="circle_cross",
            size=14,
            fill_alpha=0.0,
            line_color="#1b5e20",
            line_width=2,
        )
        self.tip = ColumnDataSource(name="tip", data=dict(x=[], y=[]))
        fig.scatter(
            "x",
            "y",
            source=self.tip,
            marker="triangle",
            size=14,
            fill_color="#1b5e20",
            fill_alpha=0.45,
            line_color="#1b5e20",
            line_width=1.5,
        )

    def show_court(self, court: Court) -> None:
        """Take the same court with other parameters (court speed, grade, crown): its relief redrawn."""
        self.court = court
        self.relief.show(court)

    def show_view(self, view: str) -> None:
        """Move the figure to a view (``view_names``)."""
        self.view = view
        x0, y0, x1, y1 = view_box(self.court, view)
        assert isinstance(self.fig.x_range, Range1d) and isinstance(self.fig.y_range, Range1d)
        self.fig.x_range.start, self.fig.x_range.end = x0, x1
        self.fig.y_range.start, self.fig.y_range.end = y0, y1
