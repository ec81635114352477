//! Decoding: an `ffmpeg` process writes raw RGB frames to a pipe, and a thread reads
//! them ahead of the program (a few frames, bounded), so that decoding runs while the
//! program computes.

use super::tool::{self, Probe};
use crate::{RtError, RtResult};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Frames decoded ahead of the program.
const AHEAD: usize = 3;

/// One decoded frame, row-major `[row, column, channel]`.
pub(super) enum Frame {
    /// 8-bit video: 0..255.
    U8(Vec<u8>),
    /// Video of more than 8 bits per component: 0..65535.
    U16(Vec<u16>),
}

/// What the reading thread sends: a frame, the end of the stream, or the decoder's
/// failure.
enum Msg {
    Frame(Frame),
    End,
    Failed(String),
}

/// A running decoder, from a start time on.
pub(super) struct Reader {
    pub path: PathBuf,
    pub name: String,
    pub probe: Probe,
    child: Option<Child>,
    frames: Option<Receiver<Msg>>,
    /// Buffers the program is done with, for the thread to decode into again.
    recycle: Option<SyncSender<Frame>>,
    thread: Option<JoinHandle<()>>,
    /// Frames read since the decoder started, and the time it started at.
    pub read: usize,
    pub start: f64,
    /// The stream has ended (or the decoder failed, which was reported once).
    pub ended: bool,
}

impl Reader {
    pub fn open(path: PathBuf, name: String, probe: Probe) -> Reader {
        Reader {
            path,
            name,
            probe,
            child: None,
            frames: None,
            recycle: None,
            thread: None,
            read: 0,
            start: 0.0,
            ended: false,
        }
    }

    /// Whether frames have more than 8 bits per component (`cube[uint16]` frames).
    pub fn wide(&self) -> bool {
        self.probe.bits > 8
    }

    /// Stops the decoder (if any) and starts one at `t` seconds.
    pub fn start_at(&mut self, who: &str, t: f64) -> RtResult<()> {
        self.stop();
        let program = tool::program("ffmpeg");
        let mut cmd = Command::new(&program);
        cmd.args(["-v", "error", "-nostdin"]);
        if t > 0.0 {
            // Before `-i`: a fast seek, exact since FFmpeg 2.1 (it decodes from the
            // key frame before `t` and drops what comes before).
            cmd.args(["-ss", &format!("{t}")]);
        }
        let fmt = if self.wide() { "rgb48le" } else { "rgb24" };
        cmd.arg("-i")
            .arg(&self.path)
            .args(["-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", fmt, "-"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped());
        let (mut child, errors) = tool::spawn(who, &program, &mut cmd)?;
        let out = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = sync_channel(AHEAD);
        let (back, recycled) = sync_channel(AHEAD + 2);
        let n = self.probe.width * self.probe.height * 3;
        let wide = self.wide();
        self.thread = Some(std::thread::spawn(move || {
            decode(out, n, wide, tx, recycled, errors)
        }));
        self.child = Some(child);
        self.frames = Some(rx);
        self.recycle = Some(back);
        self.read = 0;
        self.start = t;
        self.ended = false;
        Ok(())
    }

    /// The next frame; `Ok(None)` at the end of the stream.
    pub fn next(&mut self, who: &str) -> RtResult<Option<Frame>> {
        if self.ended {
            return Ok(None);
        }
        if self.frames.is_none() {
            self.start_at(who, 0.0)?;
        }
        let msg = self.frames.as_ref().expect("started").recv();
        match msg {
            Ok(Msg::Frame(f)) => {
                self.read += 1;
                Ok(Some(f))
            }
            Ok(Msg::End) | Err(_) => {
                self.ended = true;
                Ok(None)
            }
            Ok(Msg::Failed(e)) => {
                self.ended = true;
                Err(RtError::new(format!(
                    "{who}: FFmpeg cannot decode '{}': {e}",
                    self.name
                )))
            }
        }
    }

    /// Gives a frame's buffer back to the decoding thread.
    pub fn give_back(&self, f: Frame) {
        if let Some(tx) = &self.recycle {
            let _ = tx.try_send(f);
        }
    }

    /// Stops the decoder and its thread.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // Dropping the channels ends the thread (its pipe is closed by the kill).
        self.frames = None;
        self.recycle = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The reading thread: frames of `n` samples from `out` until the end of the pipe.
fn decode(
    mut out: std::process::ChildStdout,
    n: usize,
    wide: bool,
    tx: SyncSender<Msg>,
    recycled: Receiver<Frame>,
    errors: JoinHandle<String>,
) {
    let bytes = if wide { 2 * n } else { n };
    let mut raw = vec![0u8; if wide { bytes } else { 0 }];
    loop {
        let got = if wide {
            read_full(&mut out, &mut raw).map(|k| {
                let mut v = match recycled.try_recv() {
                    Ok(Frame::U16(v)) if v.len() == n => v,
                    _ => vec![0u16; n],
                };
                for (d, s) in v.iter_mut().zip(raw.chunks_exact(2)) {
                    *d = u16::from_le_bytes([s[0], s[1]]);
                }
                (k, Frame::U16(v))
            })
        } else {
            let mut v = match recycled.try_recv() {
                Ok(Frame::U8(v)) if v.len() == n => v,
                _ => vec![0u8; n],
            };
            read_full(&mut out, &mut v).map(|k| (k, Frame::U8(v)))
        };
        match got {
            Ok((k, f)) if k == bytes => {
                if tx.send(Msg::Frame(f)).is_err() {
                    return;
                }
            }
            Ok(_) => {
                // The end of the stream (a partial last frame is dropped): a decoder that
                // failed says why on its error output.
                drop(out);
                let errors = errors.join().unwrap_or_default();
                let msg = if errors.trim().is_empty() {
                    Msg::End
                } else {
                    Msg::Failed(tool::first_line(&errors))
                };
                let _ = tx.send(msg);
                return;
            }
            Err(e) => {
                let _ = tx.send(Msg::Failed(e.to_string()));
                return;
            }
        }
    }
}

/// Reads until `buf` is full or the pipe ends; the number of bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut k = 0;
    while k < buf.len() {
        match r.read(&mut buf[k..]) {
            Ok(0) => break,
            Ok(m) => k += m,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(k)
}
