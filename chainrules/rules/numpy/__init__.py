"""Rules for NumPy functions, one module per family."""

from . import arithmetic as arithmetic
from . import arrangement as arrangement
from . import calculus as calculus
from . import constructors as constructors
from . import convolution as convolution
from . import covariance as covariance
from . import differences as differences
from . import einsum as einsum
from . import elementwise as elementwise
from . import extrema as extrema
from . import fft as fft
from . import histograms as histograms
from . import indexing as indexing
from . import joining as joining
from . import linalg as linalg
from . import nondiff as nondiff
from . import polynomial as polynomial
from . import products as products
from . import quantiles as quantiles
from . import reductions as reductions
from . import scans as scans
from . import selection as selection
from . import shape as shape
from . import sorting as sorting
from . import statistics as statistics
