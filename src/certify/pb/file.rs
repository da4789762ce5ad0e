//! The proof file: where a logged search writes its proof, cut back and patched in
//! place as the core's writer asks ([`Output`]).

use std::io::{BufWriter, Seek, SeekFrom, Write};

use super::writer::Output;

/// A proof being written to a file, buffered.
pub(super) struct ProofFile(BufWriter<std::fs::File>);

impl ProofFile {
    /// Writes into `file`, empty, through a buffer of 64 KiB.
    pub(super) fn new(file: std::fs::File) -> ProofFile {
        ProofFile(BufWriter::with_capacity(1 << 16, file))
    }
}

impl Write for ProofFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Output for ProofFile {
    fn cut_to(&mut self, bytes: u64) -> std::io::Result<()> {
        self.0.flush()?;
        let file = self.0.get_mut();
        file.set_len(bytes)?;
        file.seek(SeekFrom::Start(bytes))?;
        Ok(())
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        self.0.flush()?;
        let file = self.0.get_mut();
        file.seek(SeekFrom::Start(at))?;
        file.write_all(bytes)?;
        file.seek(SeekFrom::End(0))?;
        Ok(())
    }
}
