from gymnax.environments import environment as environment
from gymnax.environments import spaces as spaces
