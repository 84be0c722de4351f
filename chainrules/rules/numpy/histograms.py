"""Rules for NumPy's histograms: ``histogram``, ``histogram2d``, ``histogramdd`` and their edges.

* Counts are piecewise constant in the samples: their derivative in the samples is zero (the
  count of a bin jumps when a sample crosses an edge, which has no derivative).
* With weights, a bin holds the sum of the weights of its samples: linear in the weights,
  whose cotangent is the cotangent of the bin each sample fell in (0 outside the range).
  Keyword arguments get no cotangent, so weights are taken by position; with a ``weights=``
  keyword array the rules return ``None``.
* Edges computed from the data (no ``range``, ``bins`` a count or an estimator's name) are
  ``lo + (hi - lo) k / n`` with ``lo, hi`` the data's min and max (per coordinate): they move
  with the samples that attain the min and the max, a tie sharing equally. Edges from
  ``range = (lo, hi)`` are the same line in the range's ends, which get the cotangent when the
  range is passed by position (``histogram``, ``histogram_bin_edges``). Edges given as an array
  ``bins`` are that array, whose cotangent is theirs when passed by position.
* ``density=True`` divides by the total and by each cell's volume, both differentiable
  (the volume through the edges, the total through the weights).

Arrays of edges, a positional ``range`` and a sample given as a sequence of coordinates in
``histogram2d``/``histogramdd`` have no rule here (the rules return ``None``).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> edges, pullback = rrule(np.histogram_bin_edges, np.array([0.0, 1.0, 4.0]), 2)
>>> edges, pullback(np.array([0.0, 0.0, 1.0]))[1]
(array([0., 2., 4.]), array([0., 0., 1.]))
"""

from __future__ import annotations

import numpy as np

from ...core.linear import accumulate
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


def _is_edge_array(bins):
    return not isinstance(bins, str) and np.ndim(bins) == 1


class _Binning:
    """The histogram's dependence on its inputs, worked out in the forward pass.

    ``columns`` are the sample's coordinates (each of shape ``(N,)``), ``edges`` the NumPy
    edges, ``from_data[d]`` whether coordinate ``d``'s edges are ``lo + (hi - lo) k / n``.
    ``cell`` is each sample's flat bin index (``-1`` outside the range), computed as NumPy
    does: the last edge belongs to the last bin.
    """

    def __init__(self, xq, columns, edges, from_data):
        self.xq, self.columns, self.edges, self.from_data = xq, columns, edges, from_data
        counts = [len(e) - 1 for e in edges]
        self.shape = tuple(counts)
        index = np.zeros(shape_of(columns[0]) if columns else (0,), dtype=np.intp)
        inside = np.ones(index.shape, dtype=bool)
        for column, e, n in zip(columns, edges, counts, strict=True):
            # Bin indices are integers: searchsorted has no tangent, on any array type.
            k = np.searchsorted(e, column, side="right") - 1
            on_last_edge = (k == n) & (np.searchsorted(e, column, side="left") == n)
            k = np.where(on_last_edge, n - 1, k)
            inside &= (k >= 0) & (k < n)
            index = index * n + np.clip(k, 0, n - 1)
        self.cell = np.where(inside, index, -1)
        self.inside = inside

    def edges_to_samples(self, edge_cotangents):
        """The cotangent of each coordinate from the cotangents of the data-driven edges."""
        xq = self.xq
        result: list = []
        for d, (column, e) in enumerate(zip(self.columns, self.edges, strict=True)):
            de = edge_cotangents[d]
            # Edges of empty data are NumPy's fixed (0, 1): they depend on no sample.
            if not self.from_data[d] or is_zero(de) or 0 in shape_of(column):
                result.append(None)
                continue
            n = len(e) - 1
            position = np.arange(n + 1) / n
            d_hi = xq.sum(de * xq.asarray(position))
            d_lo = xq.sum(de) - d_hi
            result.append(
                _share(xq, column, xq.min(column), d_lo) + _share(xq, column, xq.max(column), d_hi)
            )
        return result

    def samples_to_edges(self, sample_tangents):
        """The tangents of the data-driven edges from the tangents of the coordinates."""
        xq = self.xq
        result: list = []
        for column, e, dc, on in zip(
            self.columns, self.edges, sample_tangents, self.from_data, strict=True
        ):
            if not on or is_zero(dc) or 0 in shape_of(column):
                result.append(None)
                continue
            n = len(e) - 1
            position = xq.asarray(np.arange(n + 1) / n)
            d_lo = _mean_where(xq, column, xq.min(column), dc)
            d_hi = _mean_where(xq, column, xq.max(column), dc)
            result.append(d_lo + (d_hi - d_lo) * position)
        return result

    def gather(self, dh):
        """Each sample's share of a cotangent of the bins: the bin it fell in, 0 outside."""
        xq = self.xq
        flat = xq.reshape(dh, (-1,))
        return xq.where(xq.asarray(self.inside), xq.take(flat, np.maximum(self.cell, 0)), 0.0)

    def scatter(self, dw):
        """Weights' tangents summed into the bins of their samples."""
        size = int(np.prod(self.shape))
        kept = np.flatnonzero(self.inside)
        values = self.xq.take(self.xq.reshape(dw, (-1,)), kept)
        return self.xq.reshape(accumulate(self.cell[kept], values, size), self.shape)

    def count(self):
        """How many samples fell inside the range (a NumPy integer)."""
        return np.count_nonzero(self.inside)

    def volumes(self):
        """Each cell's volume, the product of its widths, shaped like the histogram."""
        xq = self.xq
        volume = 1.0
        for d, e in enumerate(self.edges):
            shape = [1] * len(self.edges)
            shape[d] = len(e) - 1
            volume = volume * xq.reshape(e[1:] - e[:-1], tuple(shape))
        return volume


def _share(xq, column, extreme, d):
    """``d`` split equally among the samples equal to ``extreme`` (a min or max tie)."""
    mask = xq.astype(column == extreme, column.dtype)
    return mask * (d / xq.sum(mask))


def _mean_where(xq, column, extreme, dc):
    mask = xq.astype(column == extreme, column.dtype)
    return xq.sum(mask * dc) / xq.sum(mask)


def _widths_to_edges(xq, d_widths):
    """The cotangent of edges ``e`` from that of the widths ``e[1:] - e[:-1]``."""
    zero = xq.zeros((1,), dtype=d_widths.dtype)
    return xq.concat([zero, d_widths]) - xq.concat([d_widths, zero])


def _density_pullback(binning, hist, total, dh):
    """Cotangents of the weighted counts and of each coordinate's edges, for density=True."""
    xq = binning.xq
    volume = binning.volumes()
    dn = dh / (total * volume)
    dn = dn - xq.sum(dh * hist) / total
    d_edges = []
    for d in range(len(binning.edges)):
        others = tuple(a for a in range(len(binning.edges)) if a != d)
        spread = -dh * hist
        summed = xq.sum(spread, axis=others) if others else spread
        widths = binning.edges[d][1:] - binning.edges[d][:-1]
        d_edges.append(_widths_to_edges(xq, summed / widths))
    return dn, d_edges


# ---- the four functions, one rule each ------------------------------------------------------
# Each is described by its positional parameter names, how its sample splits into coordinates
# and how its outputs are laid out. A keyword ``weights`` array would get no cotangent (keyword
# arguments get none): then there is no rule, and the weights must be passed by position.


class _Histogram:
    """How one histogram function takes its sample and lays out its outputs."""

    def __init__(self, f, names, sample_arity, layout):
        self.f, self.names, self.sample_arity, self.layout = f, names, sample_arity, layout

    def columns(self, xq, args):
        if self.sample_arity == 2:  # histogram2d(x, y)
            return [xq.reshape(a, (-1,)) for a in args[:2]]
        sample = args[0]
        if self.names[0] == "a":
            return [xq.reshape(sample, (-1,))]
        if isinstance(sample, list | tuple) or len(shape_of(sample)) != 2:
            return None
        return [sample[:, d] for d in range(shape_of(sample)[1])]

    def split(self, y):
        """``(hist or None, [edges per coordinate])`` from the function's result."""
        if self.layout == "edges":
            return None, [y]
        if self.layout == "2d":
            return y[0], [y[1], y[2]]
        if self.layout == "dd":
            return y[0], list(y[1])
        return y[0], [y[1]]

    def output_cotangents(self, dy, y):
        dy = unthunk(dy)
        _, edges = self.split(y)
        if is_zero(dy):
            return ZERO_TANGENT, [ZERO_TANGENT] * len(edges)
        if self.layout == "edges":
            return ZERO_TANGENT, [dy]
        items = [unthunk(t) for t in dy]
        if self.layout == "dd":
            inner = items[1]
            if is_zero(inner):
                return items[0], [ZERO_TANGENT] * len(edges)
            return items[0], [unthunk(t) for t in inner]
        return items[0], items[1:]

    def output_tangent(self, y, dh, d_edges):
        hist, edges = self.split(y)
        d_edges = [
            ProjectTo(e)(ZERO_TANGENT if de is None else de)
            for e, de in zip(edges, d_edges, strict=True)
        ]
        if self.layout == "edges":
            return d_edges[0]
        dh = ProjectTo(hist)(ZERO_TANGENT if dh is None else dh)
        if self.layout == "dd":
            return Tangent(tuple, dh, Tangent(list, *d_edges))
        return Tangent(tuple, dh, *d_edges)


def _data_driven(bins, range, dims):
    """Per coordinate, whether its edges come from the data; None for arrays of edges."""
    if dims == 1:
        return [range is None and not _is_edge_array(bins)]
    per_dim = [bins] * dims if isinstance(bins, str) or np.ndim(bins) == 0 else list(bins)
    if len(per_dim) != dims or any(np.ndim(b) != 0 for b in per_dim):
        return None
    ranges = [None] * dims if range is None else list(range)
    return [r is None for r in ranges]


def _setup(spec, args, kwargs):
    """Everything the rules need, or None when the call has no rule."""
    if kwargs.get("weights") is not None:
        return None
    params = dict(zip(spec.names, args, strict=False)) | kwargs
    range_at = spec.names.index("range")
    if spec.layout in ("2d", "dd") and len(args) > range_at and args[range_at] is not None:
        return None  # a positional range of several coordinates: pass it by keyword
    arrays = args[: spec.sample_arity]
    xq = array_namespace(*arrays)
    columns = spec.columns(xq, args)
    if columns is None:
        return None
    y = spec.f(*args, **kwargs)
    hist, edges = spec.split(y)
    from_data = _data_driven(params.get("bins", 10), params.get("range"), len(columns))
    if from_data is None:
        return None
    binning = _Binning(xq, columns, edges, from_data)
    weights = params.get("weights") if "weights" in spec.names[: len(args)] else None
    density = bool(params.get("density")) and spec.layout != "edges"
    total = None
    if density:
        # The total of the weighted counts behind the density.
        total = xq.sum(binning.scatter(weights)) if weights is not None else binning.count()
    return xq, y, hist, binning, weights, density, total


def _histogram_rules(spec):

    def histogram_rrule(*args, **kwargs):
        setup = _setup(spec, args, kwargs)
        if setup is None:
            return None
        xq, y, hist, binning, weights, density, total = setup
        projectors = [ProjectTo(a) for a in args]
        weights_at = spec.names.index("weights") if weights is not None else None
        bins_at = spec.names.index("bins")
        range_at = spec.names.index("range")
        edges_are_bins = spec.layout in ("1d", "edges") and _is_edge_array(
            args[bins_at] if len(args) > bins_at else None
        )

        def histogram_pullback(dy):
            dh, d_edges = spec.output_cotangents(dy, y)
            if weights is None and not density:
                dh = ZERO_TANGENT
            d_weights = None
            if not is_zero(dh):
                dn = dh
                if density:
                    dn, from_volume = _density_pullback(binning, hist, total, dh)
                    d_edges = [
                        v if is_zero(e) else e + v
                        for e, v in zip(d_edges, from_volume, strict=True)
                    ]
                if weights is not None:
                    d_weights = binning.gather(dn)
            d_columns = binning.edges_to_samples(d_edges)
            cotangents = [NO_TANGENT]
            for i, (a, project) in enumerate(zip(args, projectors, strict=True)):
                if i < spec.sample_arity:
                    cotangents.append(project(_sample_cotangent(xq, spec, a, i, d_columns)))
                elif i == weights_at and d_weights is not None:
                    cotangents.append(project(xq.reshape(d_weights, shape_of(a))))
                elif i == bins_at and edges_are_bins:
                    cotangents.append(project(d_edges[0]))
                elif i == weights_at:
                    cotangents.append(project(ZERO_TANGENT))
                elif i == range_at and a is not None:
                    cotangents.append(project(_range_cotangent(xq, d_edges[0], a)))
                else:
                    cotangents.append(NO_TANGENT)
            return tuple(cotangents)

        return y, histogram_pullback

    def histogram_frule(tangents, *args, **kwargs):
        setup = _setup(spec, args, kwargs)
        if setup is None:
            return None
        xq, y, hist, binning, weights, density, total = setup
        tangents = [unthunk(t) for t in tangents[1:]]
        d_columns = _sample_tangents(xq, spec, args, tangents)
        d_edges = binning.samples_to_edges(d_columns)
        bins_at = spec.names.index("bins")
        if spec.layout in ("1d", "edges") and len(args) > bins_at and _is_edge_array(args[bins_at]):
            db = tangents[bins_at]
            d_edges = [None if is_zero(db) else db]
        range_at = spec.names.index("range")
        if len(args) > range_at and args[range_at] is not None:
            d_edges = [_range_tangent(xq, tangents[range_at], binning.edges[0])]
        dn = None
        if weights is not None and not is_zero(tangents[spec.names.index("weights")]):
            dn = binning.scatter(tangents[spec.names.index("weights")])
        dh = dn
        if density:
            dh = _density_tangent(binning, hist, total, dn, d_edges)
        return y, spec.output_tangent(y, dh, d_edges)

    for rule, table in ((histogram_rrule, rrule), (histogram_frule, frule)):
        table.register(spec.f, keywords=spec.names[spec.sample_arity :])(rule)


def _range_cotangent(xq, de, range):
    """The cotangents of ``range = (lo, hi)``, whose edges are ``lo + (hi - lo) k / n``."""
    if is_zero(de):
        return ZERO_TANGENT
    n = shape_of(de)[0] - 1
    d_hi = xq.sum(de * xq.asarray(np.arange(n + 1) / n))
    return type(range)((xq.sum(de) - d_hi, d_hi))


def _range_tangent(xq, dr, edges):
    """The tangent of the edges from the tangent of ``range = (lo, hi)``."""
    if is_zero(dr):
        return None
    d_lo, d_hi = (unthunk(t) for t in dr)
    d_lo = 0.0 if is_zero(d_lo) else d_lo
    d_hi = 0.0 if is_zero(d_hi) else d_hi
    n = len(edges) - 1
    return d_lo + (d_hi - d_lo) * xq.asarray(np.arange(n + 1) / n)


def _sample_cotangent(xq, spec, a, i, d_columns):
    """The cotangent of sample argument ``i`` from the cotangents of the coordinates."""
    if spec.sample_arity == 2 or spec.names[0] == "a":
        dc = d_columns[i if spec.sample_arity == 2 else 0]
        return ZERO_TANGENT if dc is None else xq.reshape(dc, shape_of(a))
    if all(dc is None for dc in d_columns):
        return ZERO_TANGENT
    n = shape_of(a)[0]
    filled = [xq.zeros(n, dtype=a.dtype) if dc is None else dc for dc in d_columns]
    return xq.stack(filled, axis=1)


def _sample_tangents(xq, spec, args, tangents):
    """The tangents of the coordinates from those of the sample arguments."""
    if spec.sample_arity == 2:
        return [None if is_zero(t) else xq.reshape(t, (-1,)) for t in tangents[:2]]
    t = tangents[0]
    if spec.names[0] == "a":
        return [None if is_zero(t) else xq.reshape(t, (-1,))]
    dims = shape_of(args[0])[1]
    return [None if is_zero(t) else t[:, d] for d in range(dims)]


def _density_tangent(binning, hist, total, dn, d_edges):
    """d(n / (total * volume)) from the tangents of the weighted counts and of the edges."""
    xq = binning.xq
    dh = ZERO_TANGENT
    if dn is not None:
        dh = dh + dn / (total * binning.volumes()) - hist * (xq.sum(dn) / total)
    for d, de in enumerate(d_edges):
        if de is None:
            continue
        e = binning.edges[d]
        shape = [1] * len(binning.edges)
        shape[d] = len(e) - 1
        relative = xq.reshape((de[1:] - de[:-1]) / (e[1:] - e[:-1]), tuple(shape))
        dh = dh - hist * relative
    return None if is_zero(dh) else dh


_histogram_rules(_Histogram(np.histogram, ("a", "bins", "range", "density", "weights"), 1, "1d"))
_histogram_rules(
    _Histogram(np.histogram2d, ("x", "y", "bins", "range", "density", "weights"), 2, "2d")
)
_histogram_rules(
    _Histogram(np.histogramdd, ("sample", "bins", "range", "density", "weights"), 1, "dd")
)
_histogram_rules(_Histogram(np.histogram_bin_edges, ("a", "bins", "range", "weights"), 1, "edges"))
