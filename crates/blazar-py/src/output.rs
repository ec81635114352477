//! Program output (`print`, `disp`) written to Python's `sys.stdout`, so that notebooks
//! and pytest's capture see it. Whole lines are written, under the GIL.

use pyo3::prelude::*;
use std::io::Write;

#[derive(Default)]
pub struct PyStdout {
    pending: Vec<u8>,
}

impl PyStdout {
    fn emit(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        Python::with_gil(|py| {
            let written = py
                .import("sys")
                .and_then(|sys| sys.getattr("stdout"))
                .and_then(|out| out.call_method1("write", (text.as_str(),)).map(|_| ()));
            if written.is_err() {
                let _ = std::io::stdout().write_all(text.as_bytes());
            }
        });
    }
}

impl Write for PyStdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if buf.contains(&b'\n') {
            self.emit();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.emit();
        Ok(())
    }
}
