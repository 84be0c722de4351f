"""Rules for NumPy functions, one module per family."""

from . import arithmetic as arithmetic
from . import arrangement as arrangement
from . import constructors as constructors
from . import convolution as convolution
from . import differences as differences
from . import einsum as einsum
from . import elementwise as elementwise
from . import extrema as extrema
from . import fft as fft
from . import indexing as indexing
from . import joining as joining
from . import linalg as linalg
from . import linalg_decomp as linalg_decomp
from . import linalg_det as linalg_det
from . import linalg_pinv as linalg_pinv
from . import linalg_spectral as linalg_spectral
from . import nondiff as nondiff
from . import norms as norms
from . import products as products
from . import quantiles as quantiles
from . import reductions as reductions
from . import scans as scans
from . import shape as shape
from . import sorting as sorting
from . import statistics as statistics
