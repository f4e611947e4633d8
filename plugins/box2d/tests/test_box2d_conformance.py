"""protogym's conformance suite over every id this distribution registers."""

from protogym.testing import conformance_tests

test_conformance = conformance_tests("protogym-box2d")
