//! Starting the `ffmpeg` and `ffprobe` programs, and what `ffprobe` says of a file.

use crate::{rt_bail, RtError, RtResult};
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The program to run for `tool` (`"ffmpeg"`, `"ffprobe"`): `$BLAZAR_FFMPEG` /
/// `$BLAZAR_FFPROBE` when set, else the name, found on `PATH`.
pub(super) fn program(tool: &str) -> String {
    let var = format!("BLAZAR_{}", tool.to_ascii_uppercase());
    std::env::var(var)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| tool.to_string())
}

/// The error for a program that could not be started: a missing one names what to
/// install.
pub(super) fn spawn_error(who: &str, program: &str, e: &std::io::Error) -> RtError {
    if e.kind() == std::io::ErrorKind::NotFound {
        RtError::new(format!(
            "{who}: video needs FFmpeg, and `{program}` was not found: install FFmpeg \
             (`apt-get install ffmpeg`, `brew install ffmpeg`, ...) or name the programs \
             in BLAZAR_FFMPEG and BLAZAR_FFPROBE"
        ))
    } else {
        RtError::new(format!("{who}: cannot start `{program}`: {e}"))
    }
}

/// Starts `cmd` (whose program is `program`) with its standard error collected by a
/// thread, so that a chatty or failing tool never blocks on a full pipe.
pub(super) fn spawn(
    who: &str,
    program: &str,
    cmd: &mut Command,
) -> RtResult<(Child, std::thread::JoinHandle<String>)> {
    cmd.stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| spawn_error(who, program, &e))?;
    let mut err = child.stderr.take().expect("stderr is piped");
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    Ok((child, errors))
}

/// The first line of a tool's error output, for a message.
pub(super) fn first_line(s: &str) -> String {
    let line = s.lines().map(str::trim).find(|l| !l.is_empty());
    line.unwrap_or("no message").to_string()
}

/// What `ffprobe` tells of a file's first video stream.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Probe {
    pub width: usize,
    pub height: usize,
    /// Frames per second (`avg_frame_rate`, else `r_frame_rate`).
    pub fps: f64,
    /// Seconds (the stream's, else the container's; 0 when neither is known).
    pub duration: f64,
    /// The stream's frame count, else `duration * fps` rounded.
    pub frames: usize,
    /// Bits per colour component of the stored pixels (8, 10, 12, 16).
    pub bits: u32,
}

/// Runs `ffprobe` on `path` (shown as `name` in messages). Where `ffprobe` is missing
/// (FFmpeg builds that ship the `ffmpeg` program alone, such as Python's
/// `imageio-ffmpeg`), the same facts come from what `ffmpeg -i` prints.
pub(super) fn probe(who: &str, path: &Path, name: &str) -> RtResult<Probe> {
    match probe_with_ffprobe(who, path, name) {
        Err(e) if e.message.contains("was not found") => probe_with_ffmpeg(who, path, name)
            .map_err(|e2| {
                if e2.message.contains("was not found") {
                    e
                } else {
                    e2
                }
            }),
        r => r,
    }
}

/// `ffmpeg -i FILE` with no output: FFmpeg describes the input on standard error
/// (and exits with an error, as no output is named).
fn probe_with_ffmpeg(who: &str, path: &Path, name: &str) -> RtResult<Probe> {
    let program = program("ffmpeg");
    let mut cmd = Command::new(&program);
    cmd.args(["-hide_banner", "-i"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    let (mut child, errors) = spawn(who, &program, &mut cmd)?;
    let _ = child.wait();
    let text = errors.join().unwrap_or_default();
    if !text.contains("Input #") {
        rt_bail!("{who}: cannot read video '{name}': {}", first_line(&text));
    }
    parse_ffmpeg_info(&text).ok_or_else(|| {
        RtError::new(format!(
            "{who}: '{name}' has no video stream FFmpeg can read"
        ))
    })
}

/// Reads the input description `ffmpeg -i` prints: the `Duration:` line and the first
/// `Stream #...: Video:` line (codec, pixel format, `WxH`, ..., `N fps`).
pub(super) fn parse_ffmpeg_info(text: &str) -> Option<Probe> {
    let duration = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Duration:"))
        .find_map(|rest| {
            let hms = rest.split(',').next()?.trim();
            let mut parts = hms.split(':').map(|p| p.parse::<f64>().ok());
            let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
            Some(h * 3600.0 + m * 60.0 + s)
        })
        .unwrap_or(0.0);
    let video = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Stream #") && l.contains(": Video:"))?;
    let fields: Vec<&str> = video
        .split(": Video:")
        .nth(1)?
        .split(',')
        .map(str::trim)
        .collect();
    let (width, height) = fields.iter().find_map(|f| {
        let dims = f.split_whitespace().next()?;
        let (w, h) = dims.split_once('x')?;
        Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?))
    })?;
    if width == 0 || height == 0 {
        return None;
    }
    let number = |f: &str, unit: &str| -> Option<f64> {
        let v = f.strip_suffix(unit)?.trim();
        match v.strip_suffix('k') {
            Some(k) => k.parse::<f64>().ok().map(|k| k * 1000.0),
            None => v.parse().ok(),
        }
    };
    let fps = fields
        .iter()
        .find_map(|f| number(f, " fps"))
        .or_else(|| fields.iter().find_map(|f| number(f, " tbr")))
        .filter(|r| *r > 0.0)?;
    // The pixel format is the field after the codec: `yuv420p(progressive)` or `yuv420p`.
    let bits = fields
        .get(1)
        .map(|f| pix_fmt_bits(f.split(['(', ' ']).next().unwrap_or("")))
        .unwrap_or(8);
    Some(Probe {
        width,
        height,
        fps,
        duration,
        frames: (duration * fps).round() as usize,
        bits,
    })
}

fn probe_with_ffprobe(who: &str, path: &Path, name: &str) -> RtResult<Probe> {
    let program = program("ffprobe");
    let mut cmd = Command::new(&program);
    cmd.args([
        "-v",
        "error",
        "-select_streams",
        "v:0",
        "-show_entries",
        "stream=width,height,avg_frame_rate,r_frame_rate,nb_frames,duration,pix_fmt,bits_per_raw_sample:format=duration",
        "-of",
        "default=noprint_wrappers=1",
    ])
    .arg(path)
    .stdin(Stdio::null())
    .stdout(Stdio::piped());
    let (mut child, errors) = spawn(who, &program, &mut cmd)?;
    let mut out = String::new();
    let _ = child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_string(&mut out);
    let status = child
        .wait()
        .map_err(|e| RtError::new(format!("{who}: `{program}` failed: {e}")))?;
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        rt_bail!("{who}: cannot read video '{name}': {}", first_line(&errors));
    }
    parse_probe(&out).ok_or_else(|| {
        RtError::new(format!(
            "{who}: '{name}' has no video stream FFmpeg can read"
        ))
    })
}

/// Reads `key=value` lines of `ffprobe -of default=noprint_wrappers=1`.
pub(super) fn parse_probe(out: &str) -> Option<Probe> {
    let get = |key: &str| {
        out.lines()
            .filter_map(|l| l.trim().split_once('='))
            .filter(|(k, v)| *k == key && !v.is_empty() && *v != "N/A")
            .map(|(_, v)| v.to_string())
            .next()
    };
    let width: usize = get("width")?.parse().ok()?;
    let height: usize = get("height")?.parse().ok()?;
    if width == 0 || height == 0 {
        return None;
    }
    let rate = |key: &str| get(key).and_then(|r| parse_rate(&r)).filter(|r| *r > 0.0);
    let fps = rate("avg_frame_rate").or_else(|| rate("r_frame_rate"))?;
    // `duration` appears for the stream first, then for the container.
    let duration = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("duration="))
        .find_map(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0);
    let frames = get("nb_frames")
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| (duration * fps).round() as usize);
    let bits = get("bits_per_raw_sample")
        .and_then(|b| b.parse::<u32>().ok())
        .or_else(|| get("pix_fmt").map(|p| pix_fmt_bits(&p)))
        .unwrap_or(8);
    Some(Probe {
        width,
        height,
        fps,
        duration,
        frames,
        bits,
    })
}

/// `"30000/1001"` or `"25"` as a number.
fn parse_rate(r: &str) -> Option<f64> {
    match r.split_once('/') {
        Some((n, d)) => {
            let (n, d) = (n.parse::<f64>().ok()?, d.parse::<f64>().ok()?);
            (d != 0.0).then(|| n / d)
        }
        None => r.parse().ok(),
    }
}

/// Bits per component of an FFmpeg pixel format name: `yuv420p10le` is 10, `rgb48le`
/// and `gray16be` are 16, anything else 8.
fn pix_fmt_bits(p: &str) -> u32 {
    let p = p.trim_end_matches("le").trim_end_matches("be");
    if p.starts_with("rgb48") || p.starts_with("bgr48") || p.contains("64") {
        return 16;
    }
    let digits: String = p
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    match digits.parse::<u32>() {
        Ok(b @ 9..=16) if p[..p.len() - digits.len()].ends_with(['p', 'y']) => b,
        Ok(16) => 16,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_output_is_read() {
        let out = "width=64\nheight=48\npix_fmt=yuv420p10le\nr_frame_rate=30000/1001\n\
                   avg_frame_rate=30000/1001\nduration=N/A\nbits_per_raw_sample=N/A\n\
                   nb_frames=N/A\nduration=2.002000\n";
        let p = parse_probe(out).unwrap();
        assert_eq!((p.width, p.height, p.bits), (64, 48, 10));
        assert!((p.fps - 29.97).abs() < 0.01);
        assert_eq!(p.frames, 60);
        assert!((p.duration - 2.002).abs() < 1e-9);
    }

    #[test]
    fn ffmpeg_input_description_is_read() {
        let text = "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'clip.mp4':\n  Metadata:\n    \
                    major_brand     : isom\n  Duration: 00:00:10.00, start: 0.000000, \
                    bitrate: 1510 kb/s\n  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / \
                    0x31637661), yuv420p10le(progressive), 1920x1080 [SAR 1:1 DAR 16:9], \
                    1506 kb/s, 29.97 fps, 29.97 tbr, 15360 tbn (default)\n\
                    At least one output file must be specified\n";
        let p = parse_ffmpeg_info(text).unwrap();
        assert_eq!((p.width, p.height, p.bits), (1920, 1080, 10));
        assert!((p.fps - 29.97).abs() < 1e-9);
        assert!((p.duration - 10.0).abs() < 1e-9);
        assert_eq!(p.frames, 300);
        let audio_only = "Input #0, wav, from 'a.wav':\n  Duration: 00:00:01.00\n  \
                          Stream #0:0: Audio: pcm_s16le, 44100 Hz, mono, s16, 705 kb/s\n";
        assert!(parse_ffmpeg_info(audio_only).is_none());
    }

    #[test]
    fn pixel_formats_give_their_depth() {
        assert_eq!(pix_fmt_bits("yuv420p"), 8);
        assert_eq!(pix_fmt_bits("rgb24"), 8);
        assert_eq!(pix_fmt_bits("yuv422p12le"), 12);
        assert_eq!(pix_fmt_bits("rgb48le"), 16);
        assert_eq!(pix_fmt_bits("gray16be"), 16);
        assert_eq!(pix_fmt_bits("nv12"), 8);
    }

    #[test]
    fn a_missing_program_names_what_to_install() {
        let mut cmd = Command::new("blazar-no-such-ffmpeg-here");
        let e = spawn("vidopen", "blazar-no-such-ffmpeg-here", &mut cmd).unwrap_err();
        assert!(e.message.contains("install FFmpeg"), "{}", e.message);
        assert!(e.message.starts_with("vidopen: "), "{}", e.message);
    }
}
