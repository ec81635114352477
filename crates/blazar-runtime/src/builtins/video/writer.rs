//! Encoding: raw RGB frames written into the pipe of an `ffmpeg` encoder, started at
//! the first frame (which fixes the video's size and depth).

use super::tool;
use crate::{rt_bail, RtError, RtResult};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread::JoinHandle;

/// A video being written.
pub(super) struct Writer {
    pub path: PathBuf,
    pub name: String,
    pub fps: f64,
    /// The FFmpeg encoder asked for (`-c:v`), if any.
    pub codec: Option<String>,
    /// Rows, columns and whether samples are 16-bit, fixed by the first frame.
    pub shape: Option<(usize, usize, bool)>,
    pub frames: usize,
    enc: Option<Encoder>,
}

struct Encoder {
    child: Child,
    input: Option<ChildStdin>,
    errors: Option<JoinHandle<String>>,
}

impl Writer {
    pub fn new(path: PathBuf, name: String, fps: f64, codec: Option<String>) -> Writer {
        Writer {
            path,
            name,
            fps,
            codec,
            shape: None,
            frames: 0,
            enc: None,
        }
    }

    /// Writes one frame of `h x w` RGB samples (`bytes`: 8-bit, or 16-bit
    /// little-endian when `wide`).
    pub fn write(
        &mut self,
        who: &str,
        h: usize,
        w: usize,
        wide: bool,
        bytes: &[u8],
    ) -> RtResult<()> {
        match self.shape {
            None => {
                self.start(who, h, w, wide)?;
                self.shape = Some((h, w, wide));
            }
            Some((h0, w0, _)) if (h0, w0) != (h, w) => rt_bail!(
                "{who}: the frame is {h}x{w}x3 but the video '{}' is {h0}x{w0}x3 (all frames of a video have the size of its first)",
                self.name
            ),
            Some((_, _, wide0)) if wide0 != wide => rt_bail!(
                "{who}: the frame is {} but the video '{}' was started with {} frames",
                depth(wide),
                self.name,
                depth(wide0)
            ),
            Some(_) => {}
        }
        let enc = self.enc.as_mut().expect("started");
        let input = enc.input.as_mut().expect("open until closed");
        if input.write_all(bytes).is_err() {
            // The encoder stopped: its message says why.
            let e = self.finish_encoder();
            return Err(RtError::new(format!(
                "{who}: FFmpeg stopped encoding '{}': {}",
                self.name,
                e.err().map_or("no message".to_string(), |e| e.message)
            )));
        }
        self.frames += 1;
        Ok(())
    }

    fn start(&mut self, who: &str, h: usize, w: usize, wide: bool) -> RtResult<()> {
        if h % 2 == 1 || w % 2 == 1 {
            // Most encoders subsample colour by 2: an odd size is refused by some and
            // silently cropped by others, so it is refused here with the reason.
            let lossless = matches!(self.codec.as_deref(), Some("ffv1" | "rawvideo" | "png"));
            if !lossless {
                rt_bail!(
                    "{who}: the frame is {h}x{w}x3; video encoders need an even number of rows and columns (or use the codec \"ffv1\" or \"rawvideo\")"
                );
            }
        }
        let program = tool::program("ffmpeg");
        let mut cmd = Command::new(&program);
        cmd.args(["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt"])
            .arg(if wide { "rgb48le" } else { "rgb24" })
            .args(["-s", &format!("{w}x{h}"), "-r", &format!("{}", self.fps)])
            .args(["-i", "-"]);
        match self.codec.as_deref() {
            Some(c) => {
                cmd.args(["-c:v", c]);
                if c == "libx264" {
                    cmd.args(["-pix_fmt", "yuv420p"]);
                }
                if c == "rawvideo" && !wide {
                    // Raw RGB in AVI is read back as BGR unless stored as BGR.
                    cmd.args(["-pix_fmt", "bgr24"]);
                }
            }
            None => {
                let ext = self.path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if matches!(ext.to_ascii_lowercase().as_str(), "mp4" | "mov" | "mkv") {
                    // H.264 at a high quality, in the pixel format players expect.
                    cmd.args(["-pix_fmt", "yuv420p", "-crf", "18"]);
                }
            }
        }
        cmd.arg(&self.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        let (mut child, errors) = tool::spawn(who, &program, &mut cmd)?;
        let input = child.stdin.take();
        self.enc = Some(Encoder {
            child,
            input,
            errors: Some(errors),
        });
        Ok(())
    }

    /// Ends the input and waits for the encoder; its failure is an error.
    fn finish_encoder(&mut self) -> RtResult<()> {
        let Some(mut enc) = self.enc.take() else {
            return Ok(());
        };
        drop(enc.input.take());
        let status = enc.child.wait();
        let errors = enc
            .errors
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default();
        match status {
            Ok(s) if s.success() => Ok(()),
            Ok(_) => Err(RtError::new(tool::first_line(&errors))),
            Err(e) => Err(RtError::new(e.to_string())),
        }
    }

    /// Finishes the file: `vidclose`, or the end of the run.
    pub fn close(&mut self, who: &str) -> RtResult<()> {
        self.finish_encoder().map_err(|e| {
            RtError::new(format!(
                "{who}: FFmpeg could not write '{}': {}",
                self.name, e.message
            ))
        })
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.finish_encoder();
    }
}

fn depth(wide: bool) -> &'static str {
    if wide {
        "16-bit (uint16)"
    } else {
        "8-bit"
    }
}
