//! How much input is read at all: memory is bounded before parsing starts.

/// Most cells all boards of one workload may have together: every board is held in
/// memory before the first is solved, so that bad input is refused before any output.
pub const MAX_WORKLOAD_CELLS: usize = 1 << 26;

/// Most bytes one input file (or standard input) may hold: room for a workload of a
/// million game boards, or several 1024×1024 boards with every cell listed as blocked.
/// It is read in chunks up to this size and refused past it, so that memory is bounded
/// before parsing starts (`dominofit solve /dev/zero` used to grow without end).
pub const MAX_INPUT_BYTES: usize = 256 << 20;
