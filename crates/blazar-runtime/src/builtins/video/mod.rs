//! Video in and out (the functions of Quasar's `Quasar.Video.dll`) and the HDR display
//! (`hdr_imshow`, of the `Sim2HDR.dll` plugin).
//!
//! `vidopen(file)` gives an object with the fields published programs read:
//! `frame_width`, `frame_height`, `avg_frame_rate`, `duration_sec`, `frame_count`,
//! `bits_per_color`, `pts` (the time of the current frame, seconds) and `rgb_data`, the
//! current frame as a rows × columns × 3 cube of the stored samples: a `cube[uint8]`
//! (0..255) for 8-bit video, a `cube[uint16]` (0..65535) for deeper video, as the
//! published programs read it (`float(stream.rgb_data)/255`, and `frame:cube[uint16] =
//! stream.rgb_data` when `bits_per_color > 8`). `vidreadframe(v)` reads the next frame
//! into `rgb_data` and returns whether there was one; `vidseek(v, t)` moves to `t`
//! seconds; `sync_framerate(fps)` makes each `vidreadframe` wait for its time at that
//! rate. Writing: `w = vidwrite(file, fps)`, `vidwriteframe(w, frame)`, `vidclose(w)`.
//! Frames are ordinary arrays: they go to a GPU, into kernels and into fused
//! expressions like any other array, with nothing special.
//!
//! FFmpeg does the decoding and encoding as the `ffmpeg` and `ffprobe` programs, over
//! pipes, not through a binding crate to its libraries: the build needs no FFmpeg
//! development files, bindgen or libclang; nothing ties Blazar's binary to one FFmpeg
//! version's ABI (any FFmpeg from the last ten years works, and a newer one is a
//! package update, not a rebuild); and decoding runs in its own process, in parallel
//! with the program, with a thread reading a few frames ahead (`reader.rs`). Raw RGB
//! over a pipe costs a copy per frame, small beside decoding itself. A missing FFmpeg is
//! a located error that names what to install; `BLAZAR_FFMPEG` and `BLAZAR_FFPROBE` name
//! other programs.
//!
//! The processes belong to the run ([`Videos`] in the builtins' context): readers stop
//! when their object is freed or the run ends; a writer not closed by `vidclose` is
//! finished when the run ends ([`finish`]), so the file is complete.

mod hdr;
mod reader;
mod tool;
mod writer;

pub use hdr::tone_map;
pub(super) use hdr::TABLE as HDR_TABLE;

use super::io::{path_arg, resolve_path};
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer, ElemType};
use crate::value::Object;
use crate::IntTy;
use crate::{rt_bail, RtResult, Value};
use reader::{Frame, Reader};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};
use writer::Writer;

use super::math::bi;

/// The videos of a run: open readers and writers, keyed by their objects, the frame
/// rate `sync_framerate` holds, and the newest `hdr_imshow` frame.
#[derive(Default)]
pub struct Videos {
    readers: Vec<(Weak<RefCell<Object>>, Reader)>,
    writers: Vec<(Weak<RefCell<Object>>, Writer)>,
    /// Seconds per frame, and when the last frame was handed out.
    pace: Option<(f64, Option<Instant>)>,
    hdr: Option<hdr::HdrFrame>,
}

pub(super) static TABLE: &[Builtin] = &[
    bi("vidopen", vidopen, 1, 1).doc(
        "vidopen(file)",
        "Opens a video file for reading (any format FFmpeg reads). The object has `frame_width`, `frame_height`, `avg_frame_rate`, `duration_sec`, `frame_count`, `bits_per_color`, `pts` (seconds) and `rgb_data`, the current frame: rows × columns × 3, a `cube[uint8]` of 0..255 for 8-bit video, a `cube[uint16]` of 0..65535 for deeper video. Needs the `ffmpeg` program (and uses `ffprobe` where it is installed).",
        "w = vidwrite(\"clip.avi\", 25, \"rawvideo\")\nfor k = 0..4\n    vidwriteframe(w, ones(6, 8, 3) * 40 * k)\nend\nvidclose(w)\nv = vidopen(\"clip.avi\")\nprint v.frame_width, \"x\", v.frame_height, \" \", v.frame_count, \" frames at \", v.avg_frame_rate, \" fps\"",
        "8x6 5 frames at 25 fps",
    ),
    bi("vidreadframe", vidreadframe, 1, 1).doc(
        "vidreadframe(v)",
        "Reads the next frame of video v into `v.rgb_data` (and its time into `v.pts`); returns 1, or 0 at the end of the video. The frame's buffer is reused when nothing else holds it.",
        "w = vidwrite(\"c.avi\", 10, \"rawvideo\")\nvidwriteframe(w, ones(2, 4, 3) * 7)\nvidclose(w)\nv = vidopen(\"c.avi\")\nprint vidreadframe(v), \" \", v.rgb_data[1, 3, 2], \" \", vidreadframe(v)",
        "1 7 0",
    ),
    bi("vidseek", vidseek, 2, 2).doc(
        "vidseek(v, t)",
        "Moves video v to time t (seconds): the next `vidreadframe` reads the frame shown at t.",
        "w = vidwrite(\"s.avi\", 10, \"rawvideo\")\nfor k = 0..9\n    vidwriteframe(w, ones(2, 2, 3) * k)\nend\nvidclose(w)\nv = vidopen(\"s.avi\")\nvidseek(v, 0.5)\nvidreadframe(v)\nprint v.rgb_data[0, 0, 0], \" \", v.pts",
        "5 0.5",
    ),
    bi("sync_framerate", sync_framerate, 1, 1).doc(
        "sync_framerate(fps)",
        "Holds the frame rate of video playback: from now on each `vidreadframe` waits until its frame's time at fps frames per second (0 stops waiting). Published programs call it once with the video's `avg_frame_rate`.",
        "sync_framerate(1000)\nprint \"paced\"",
        "paced",
    ),
    bi("vidwrite", vidwrite, 2, 3).doc(
        "vidwrite(file, fps) · vidwrite(file, fps, codec)",
        "Starts writing a video file at fps frames per second; `vidwriteframe` adds frames and `vidclose` finishes the file (a video still open is finished when the program ends). The format comes from the extension; codec names an FFmpeg encoder (\"ffv1\" and \"rawvideo\" are lossless; .mp4 and .mkv default to H.264).",
        "w = vidwrite(\"out.avi\", 30, \"ffv1\")\nvidwriteframe(w, zeros(4, 4, 3))\nvidclose(w)\nprint w.frames, \" frame\"",
        "1 frame",
    ),
    bi("vidwriteframe", vidwriteframe, 2, 2).doc(
        "vidwriteframe(w, frame)",
        "Adds a frame (rows × columns × 3, or a gray mat; values 0..255, rounded and clamped, or a `cube[uint16]` for a 16-bit video) to video w. Every frame has the size of the first.",
        "w = vidwrite(\"f.avi\", 30, \"rawvideo\")\nvidwriteframe(w, ones(2, 2) * 255)\nvidwriteframe(w, ones(2, 2, 3) * 128)\nvidclose(w)\nprint w.frames",
        "2",
    ),
    bi("vidclose", vidclose, 1, 1).doc(
        "vidclose(v)",
        "Closes a video: a video being written is finished (its file complete); a video being read stops decoding.",
        "w = vidwrite(\"e.avi\", 30, \"rawvideo\")\nvidwriteframe(w, zeros(2, 2, 3))\nvidclose(w)\nprint vidopen(\"e.avi\").frame_count",
        "1",
    ),
];

fn object(fields: Vec<(&str, Value)>) -> Rc<RefCell<Object>> {
    let fields = fields.into_iter().map(|(n, v)| (Rc::from(n), v)).collect();
    Rc::new(RefCell::new(Object {
        class: None,
        fields,
    }))
}

fn video_arg<'a>(who: &str, v: &'a Value) -> RtResult<&'a Rc<RefCell<Object>>> {
    match v {
        Value::Object(o) => Ok(o),
        v => rt_bail!(
            "{who}: expected a video (from vidopen or vidwrite), got {}",
            v.kind_name()
        ),
    }
}

impl Videos {
    fn reader(&mut self, who: &str, o: &Rc<RefCell<Object>>) -> RtResult<&mut Reader> {
        let p = Rc::as_ptr(o);
        match self.readers.iter_mut().find(|(w, _)| w.as_ptr() == p) {
            Some((_, r)) => Ok(r),
            None if self.writers.iter().any(|(w, _)| w.as_ptr() == p) => {
                rt_bail!("{who}: this video is being written (vidwrite), not read")
            }
            None => rt_bail!("{who}: expected a video opened with vidopen (or it was closed)"),
        }
    }

    /// Drops readers and writers whose objects are gone (a writer is finished then).
    fn reap(&mut self) {
        self.readers.retain(|(w, _)| w.strong_count() > 0);
        self.writers.retain(|(w, _)| w.strong_count() > 0);
    }
}

fn vidopen(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("vidopen", &args[0])?;
    let path = resolve_path(ctx, &name);
    if !path.is_file() {
        rt_bail!("vidopen: cannot open '{name}': no such file");
    }
    let probe = tool::probe("vidopen", &path, &name)?;
    let (h, w) = (probe.height, probe.width);
    let elem = if probe.bits > 8 {
        ElemType::Int(IntTy::U16)
    } else {
        ElemType::Int(IntTy::U8)
    };
    crate::alloc::reserve_elems(
        "vidopen",
        h.checked_mul(w).and_then(|n| n.checked_mul(3)),
        elem,
    )?;
    let frame = Array::new(
        vec![h, w, 3],
        if probe.bits > 8 {
            Buffer::U16(vec![0; h * w * 3])
        } else {
            Buffer::U8(vec![0; h * w * 3])
        },
    );
    let obj = object(vec![
        ("file", Value::str(&name)),
        ("frame_width", Value::int(w as i64)),
        ("frame_height", Value::int(h as i64)),
        ("avg_frame_rate", Value::Real(probe.fps)),
        ("duration_sec", Value::Real(probe.duration)),
        ("frame_count", Value::int(probe.frames as i64)),
        ("bits_per_color", Value::int(probe.bits as i64)),
        ("pts", Value::Real(0.0)),
        ("rgb_data", Value::array(frame)),
    ]);
    ctx.video.reap();
    let reader = Reader::open(path, name, probe);
    ctx.video.readers.push((Rc::downgrade(&obj), reader));
    Ok(Value::Object(obj))
}

/// Waits for the next frame's time when `sync_framerate` holds a rate.
fn pace(v: &mut Videos) {
    let Some((period, last)) = &mut v.pace else {
        return;
    };
    let now = Instant::now();
    if let Some(prev) = *last {
        let due = prev + Duration::from_secs_f64(*period);
        if due > now {
            std::thread::sleep(due - now);
            *last = Some(due);
            return;
        }
    }
    *last = Some(now);
}

fn vidreadframe(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let o = video_arg("vidreadframe", &args[0])?;
    pace(&mut ctx.video);
    let r = ctx.video.reader("vidreadframe", o)?;
    let Some(frame) = r.next("vidreadframe")? else {
        return Ok(Value::int(0));
    };
    let pts = r.start + (r.read - 1) as f64 / r.probe.fps;
    let dims = vec![r.probe.height, r.probe.width, 3];
    let mut obj = o.borrow_mut();
    // The frame's buffer replaces the old one in place when only the object holds the
    // array (no copy; the old buffer goes back to the decoder); otherwise the object
    // gets a new array and what others hold stays as it was.
    let left = match obj.get("rgb_data") {
        Some(Value::Array(a)) if Rc::strong_count(&a.data) == 1 && a.view_dims().is_none() => {
            let mut w = a.borrow_mut();
            let same = w.dims == dims;
            match (&mut w.buf, frame) {
                (Buffer::U8(b), Frame::U8(v)) if same => {
                    r.give_back(Frame::U8(std::mem::replace(b, v)));
                    None
                }
                (Buffer::U16(b), Frame::U16(v)) if same => {
                    r.give_back(Frame::U16(std::mem::replace(b, v)));
                    None
                }
                (_, f) => Some(f),
            }
        }
        _ => Some(frame),
    };
    if let Some(f) = left {
        obj.set("rgb_data", Value::array(frame_array(dims, f)));
    }
    obj.set("pts", Value::Real(pts));
    Ok(Value::int(1))
}

fn frame_array(dims: Vec<usize>, f: Frame) -> Array {
    match f {
        Frame::U8(v) => Array::new(dims, Buffer::U8(v)),
        Frame::U16(v) => Array::new(dims, Buffer::U16(v)),
    }
}

fn vidseek(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let o = video_arg("vidseek", &args[0])?;
    let t = match args[1].as_f64() {
        Some(t) if t.is_finite() && t >= 0.0 => t,
        _ => rt_bail!(
            "vidseek: the time must be a number of seconds >= 0, got {}",
            args[1].kind_name()
        ),
    };
    let r = ctx.video.reader("vidseek", o)?;
    r.start_at("vidseek", t)?;
    // The next frame's time: frames are read from the first at or after t.
    o.borrow_mut().set("pts", Value::Real(t));
    Ok(Value::Real(0.0))
}

fn sync_framerate(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match args[0].as_f64() {
        Some(f) if f == 0.0 => ctx.video.pace = None,
        Some(f) if f.is_finite() && f > 0.0 => ctx.video.pace = Some((1.0 / f, None)),
        _ => rt_bail!(
            "sync_framerate: expected a frame rate (frames per second > 0, or 0), got {}",
            args[0].kind_name()
        ),
    }
    Ok(Value::Real(0.0))
}

fn vidwrite(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("vidwrite", &args[0])?;
    let path = resolve_path(ctx, &name);
    let fps = match args[1].as_f64() {
        Some(f) if f.is_finite() && f > 0.0 => f,
        _ => rt_bail!(
            "vidwrite: the frame rate must be a number > 0, got {}",
            args[1].kind_name()
        ),
    };
    let codec = match args.get(2) {
        None => None,
        Some(Value::Str(s)) if !s.is_empty() && !s.starts_with('-') => Some(s.to_string()),
        Some(v) => rt_bail!(
            "vidwrite: the codec must be an FFmpeg encoder's name, got {}",
            v.kind_name()
        ),
    };
    if path
        .parent()
        .is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        rt_bail!("vidwrite: cannot write '{name}': its folder does not exist");
    }
    let obj = object(vec![
        ("file", Value::str(&name)),
        ("avg_frame_rate", Value::Real(fps)),
        ("frames", Value::int(0)),
    ]);
    ctx.video.reap();
    ctx.video
        .writers
        .push((Rc::downgrade(&obj), Writer::new(path, name, fps, codec)));
    Ok(Value::Object(obj))
}

fn vidwriteframe(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    const WHO: &str = "vidwriteframe";
    let o = video_arg(WHO, &args[0])?;
    let p = Rc::as_ptr(o);
    let Some((_, w)) = ctx.video.writers.iter_mut().find(|(w, _)| w.as_ptr() == p) else {
        rt_bail!("{WHO}: expected a video started with vidwrite (or it was closed)");
    };
    let (h, wd, wide, bytes) = frame_bytes(WHO, &args[1])?;
    w.write(WHO, h, wd, wide, &bytes)?;
    let n = w.frames;
    o.borrow_mut().set("frames", Value::int(n as i64));
    Ok(Value::Real(0.0))
}

/// A frame as raw RGB bytes: rows, columns, whether 16-bit, the bytes.
fn frame_bytes(who: &str, v: &Value) -> RtResult<(usize, usize, bool, Vec<u8>)> {
    let Value::Array(a) = v else {
        rt_bail!(
            "{who}: expected a frame (M x N x 3 cube or M x N mat), got {}",
            v.kind_name()
        );
    };
    let a = a.borrow();
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{who}: expected a real frame, got {}", v.kind_name());
    }
    let (h, w, c) = match a.dims() {
        [m, n] => (*m, *n, 1),
        [m, n, c @ (1 | 3)] => (*m, *n, *c),
        dims => rt_bail!(
            "{who}: a frame is an M x N x 3 cube or an M x N mat, got size {}",
            fmt_dims(dims)
        ),
    };
    if h == 0 || w == 0 {
        rt_bail!("{who}: the frame is empty ({h}x{w})");
    }
    let expand = |n: usize| if c == 1 { n * 3 } else { n };
    let bytes = match a.buf() {
        Buffer::U8(v) if c == 3 => v.clone(),
        Buffer::U8(v) => v.iter().flat_map(|&g| [g; 3]).collect(),
        Buffer::U16(v) => {
            let mut out = Vec::with_capacity(expand(v.len()) * 2);
            for &s in v {
                for _ in 0..(if c == 1 { 3 } else { 1 }) {
                    out.extend_from_slice(&s.to_le_bytes());
                }
            }
            return Ok((h, w, true, out));
        }
        // Values rounded half away from zero and clamped to 0..255, NaN as 0. A value
        // of `float` widens exactly, and after the clamp `+ 0.5` then truncation is that
        // rounding (no libm call per sample).
        Buffer::F32(v) => to_bytes(v, c == 1, to8_f32),
        Buffer::F64(v) => to_bytes(v, c == 1, to8),
        _ => to_bytes(&a.to_f64_vec(), c == 1, to8),
    };
    Ok((h, w, false, bytes))
}

fn to8_f32(x: f32) -> u8 {
    let x = f64::from(x);
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 255.0) + 0.5) as u8
    }
}

fn to8(x: f64) -> u8 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(0.0, 255.0) as u8
    }
}

/// `src` as 8-bit samples through `f`, a gray sample repeated for red, green and blue;
/// a large frame (a 1080p frame is 6M samples) over several threads.
fn to_bytes<T: Copy + Sync>(src: &[T], gray: bool, f: impl Fn(T) -> u8 + Sync) -> Vec<u8> {
    let rep = if gray { 3 } else { 1 };
    let mut out = vec![0u8; src.len() * rep];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let chunk = src.len().div_ceil(threads).max(1 << 16);
    let f = &f;
    std::thread::scope(|scope| {
        for (part, dst) in src.chunks(chunk).zip(out.chunks_mut(chunk * rep)) {
            scope.spawn(move || {
                for (&x, d) in part.iter().zip(dst.chunks_exact_mut(rep)) {
                    d.fill(f(x));
                }
            });
        }
    });
    out
}

fn fmt_dims(d: &[usize]) -> String {
    let parts: Vec<String> = d.iter().map(usize::to_string).collect();
    format!("[{}]", parts.join(","))
}

fn vidclose(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let o = video_arg("vidclose", &args[0])?;
    let p = Rc::as_ptr(o);
    if let Some(i) = ctx.video.writers.iter().position(|(w, _)| w.as_ptr() == p) {
        let (_, mut w) = ctx.video.writers.remove(i);
        w.close("vidclose")?;
        return Ok(Value::Real(0.0));
    }
    if let Some(i) = ctx.video.readers.iter().position(|(w, _)| w.as_ptr() == p) {
        ctx.video.readers.remove(i);
        return Ok(Value::Real(0.0));
    }
    rt_bail!("vidclose: expected an open video (from vidopen or vidwrite)")
}

/// Ends the run's videos: writers still open are finished (their files complete),
/// readers stop, and the newest `hdr_imshow` frame is written. Called once when the
/// program ends, with the figures.
pub fn finish(ctx: &mut Ctx) -> RtResult<()> {
    ctx.video.readers.clear();
    let mut first_err = None;
    for (_, mut w) in std::mem::take(&mut ctx.video.writers) {
        if let Err(e) = w.close("vidwrite") {
            first_err.get_or_insert(e);
        }
    }
    hdr::finish(ctx)?;
    first_err.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_samples_round_half_away_and_clamp() {
        let xs = [
            -3.0f32, -0.4, 0.0, 0.49999997, 0.5, 1.5, 2.5, 254.49998, 254.5, 300.0,
        ];
        let want = [0u8, 0, 0, 0, 1, 2, 3, 254, 255, 255];
        assert_eq!(to_bytes(&xs, false, to8_f32), want);
        assert_eq!(to8_f32(f32::NAN), 0);
        // The fast rounding of `float` agrees with `round` on every value near a half.
        for k in 0..=512 {
            let h = k as f32 * 0.5;
            for x in [
                h,
                f32::from_bits(h.to_bits() + 1),
                f32::from_bits(h.to_bits().max(1) - 1),
            ] {
                assert_eq!(to8_f32(x), to8(f64::from(x)), "{x}");
            }
        }
        let gray = to_bytes(&vec![7.0f64; 200_000], true, to8);
        assert_eq!(gray.len(), 600_000);
        assert!(gray.iter().all(|&b| b == 7));
    }
}
