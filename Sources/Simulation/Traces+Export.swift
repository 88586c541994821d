/// A simulation runs over a `NetworkTrace`: its users get the trace types with the simulator.
@_exported import Traces
