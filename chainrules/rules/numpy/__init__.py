"""Rules for NumPy functions, one module per family."""

from . import arithmetic as arithmetic
from . import constructors as constructors
from . import elementwise as elementwise
from . import fft as fft
from . import indexing as indexing
from . import nondiff as nondiff
from . import products as products
from . import reductions as reductions
from . import shape as shape
from . import sorting as sorting
from . import statistics as statistics
