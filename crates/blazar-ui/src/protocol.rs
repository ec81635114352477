//! The websocket protocol between the server and the page.
//!
//! Server to page, JSON text (`t` names the message):
//! `{"t":"form","title":..}`, `{"t":"heading","text":..}`,
//! `{"t":"slider","id":..,"label":..,"value":..,"min":..,"max":..}`,
//! `{"t":"checkbox","id":..,"label":..,"value":true|false}`,
//! `{"t":"button","id":..,"label":..}`, `{"t":"display","id":..,"rows":..,"cols":..}`
//! (a display added, or split by `subplot`), `{"t":"value","id":..,"value":..}` (the
//! program set a control); and binary messages, a picture for a display's panel: five
//! little-endian u32 (the display's id, the panel's index, the width, the height and
//! the channels: 1 gray, 3 RGB), then the 8-bit pixels row by row, channels
//! interleaved (no compression: the page is on the same machine, and encoding costs
//! the program's process far more than the bytes cost the loopback).
//!
//! Page to server, JSON text: `{"t":"set","id":..,"value":..}` (a slider moved, a box
//! ticked: 1 or 0), `{"t":"click","id":..}`, and `{"t":"ack","n":..}`: `n` pictures
//! were drawn. A page is sent no new picture while one it was sent is not acknowledged
//! (back-pressure: a slow page gets fewer pictures, and the program's process converts
//! no picture that no page is ready for).
//!
//! [`State`] keeps what a page that connects (or reloads) needs to show the form as it
//! stands: the messages so far, with each control's value kept current, and the newest
//! picture of each panel.

use axum::body::Bytes;
use blazar_runtime::ui::{Frame, FromPage, Preview, ToPage};
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(Default)]
pub struct State {
    /// Every message so far, in order, as a new page must replay them.
    pub log: Vec<Value>,
    /// The panels of displays, by (display, panel).
    pub panels: BTreeMap<(usize, usize), Panel>,
    /// The number of the newest picture converted (they are numbered from 1).
    pub converted: u64,
}

#[derive(Default)]
pub struct Panel {
    /// The newest picture not yet converted.
    pub raw: Option<Frame>,
    /// The newest picture converted, with its number, as its binary message.
    pub ready: Option<(u64, Bytes)>,
}

impl State {
    /// Records a message of the program and returns its text for the pages.
    pub fn record(&mut self, msg: &ToPage) -> String {
        let v = to_json(msg);
        match msg {
            ToPage::Value { id, value } => self.set_value(*id, *value),
            ToPage::Display { id, .. } => {
                let same = |m: &Value| m["t"] == "display" && m["id"] == json!(id);
                match self.log.iter_mut().find(|m| same(m)) {
                    Some(m) => *m = v.clone(),
                    None => self.log.push(v.clone()),
                }
            }
            _ => self.log.push(v.clone()),
        }
        v.to_string()
    }

    /// Keeps control `id`'s value current in the log.
    pub fn set_value(&mut self, id: usize, value: f64) {
        let control = self.log.iter_mut().find(|m| {
            m["id"] == json!(id) && matches!(m["t"].as_str(), Some("slider" | "checkbox"))
        });
        if let Some(m) = control {
            m["value"] = if m["t"] == "checkbox" {
                json!(value != 0.0)
            } else {
                json!(value)
            };
        }
    }

    pub fn put_frame(&mut self, frame: Frame) {
        let key = (frame.display, frame.panel);
        self.panels.entry(key).or_default().raw = Some(frame);
    }

    /// Keeps a converted picture as its panel's newest; returns its number.
    pub fn put_converted(&mut self, display: usize, panel: usize, msg: Bytes) -> u64 {
        self.converted += 1;
        let n = self.converted;
        self.panels.entry((display, panel)).or_default().ready = Some((n, msg));
        n
    }

    /// The newest converted picture of each panel numbered above `after`, with the
    /// highest number among them.
    pub fn pictures_after(&self, after: u64) -> (Vec<Bytes>, u64) {
        let mut upto = after;
        let mut out = Vec::new();
        for (n, msg) in self.panels.values().filter_map(|p| p.ready.as_ref()) {
            if *n > after {
                out.push(msg.clone());
                upto = upto.max(*n);
            }
        }
        (out, upto)
    }

    /// What a page that connects now is sent first (then the pictures, as it is ready
    /// for them).
    pub fn replay(&self) -> Vec<String> {
        self.log.iter().map(|m| m.to_string()).collect()
    }
}

pub fn to_json(msg: &ToPage) -> Value {
    match msg {
        ToPage::Form { title } => json!({"t": "form", "title": title}),
        ToPage::Heading { text } => json!({"t": "heading", "text": text}),
        ToPage::Slider {
            id,
            label,
            value,
            min,
            max,
        } => {
            json!({"t": "slider", "id": id, "label": label, "value": value, "min": min, "max": max})
        }
        ToPage::Checkbox { id, label, value } => {
            json!({"t": "checkbox", "id": id, "label": label, "value": value})
        }
        ToPage::Button { id, label } => json!({"t": "button", "id": id, "label": label}),
        ToPage::Display { id, rows, cols } => {
            json!({"t": "display", "id": id, "rows": rows, "cols": cols})
        }
        ToPage::Value { id, value } => json!({"t": "value", "id": id, "value": value}),
    }
}

/// What the page sent.
#[derive(Clone, Debug, PartialEq)]
pub enum FromClient {
    /// Something the user did, for the program.
    Event(FromPage),
    /// The page drew this many pictures.
    Ack(u64),
}

/// A message of the page; `None` for one that is not of the protocol (ignored).
pub fn parse(text: &str) -> Option<FromClient> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v["t"] == "ack" {
        return Some(FromClient::Ack(v["n"].as_u64()?));
    }
    event(&v).map(FromClient::Event)
}

fn event(v: &Value) -> Option<FromPage> {
    let id = usize::try_from(v["id"].as_u64()?).ok()?;
    match v["t"].as_str()? {
        "set" => {
            let value = match &v["value"] {
                Value::Bool(b) => *b as u8 as f64,
                x => x.as_f64()?,
            };
            value.is_finite().then_some(FromPage::Set { id, value })
        }
        "click" => Some(FromPage::Click { id }),
        _ => None,
    }
}

/// The bytes before a picture's pixels.
pub const PICTURE_HEAD: usize = 20;

/// A picture's binary message: display, panel, width, height, channels, pixels.
pub fn picture(display: usize, panel: usize, p: &Preview) -> Bytes {
    let mut b = Vec::with_capacity(PICTURE_HEAD + p.pixels.len());
    for x in [display, panel, p.width as usize, p.height as usize, p.chans] {
        b.extend_from_slice(&(x as u32).to_le_bytes());
    }
    b.extend_from_slice(&p.pixels);
    Bytes::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_messages_parse() {
        let ev = |e| Some(FromClient::Event(e));
        assert_eq!(
            parse(r#"{"t":"set","id":2,"value":0.25}"#),
            ev(FromPage::Set { id: 2, value: 0.25 })
        );
        assert_eq!(
            parse(r#"{"t":"set","id":1,"value":true}"#),
            ev(FromPage::Set { id: 1, value: 1.0 })
        );
        assert_eq!(
            parse(r#"{"t":"click","id":4}"#),
            ev(FromPage::Click { id: 4 })
        );
        assert_eq!(parse(r#"{"t":"ack","n":2}"#), Some(FromClient::Ack(2)));
        assert_eq!(parse(r#"{"t":"ack","n":-1}"#), None);
        assert_eq!(parse(r#"{"t":"set","id":-1,"value":1}"#), None);
        assert_eq!(parse("not json"), None);
    }

    #[test]
    fn a_picture_is_its_head_and_pixels() {
        let p = Preview {
            width: 2,
            height: 1,
            chans: 1,
            pixels: vec![7, 9],
        };
        let m = picture(3, 1, &p);
        assert_eq!(m.len(), PICTURE_HEAD + 2);
        assert_eq!(&m[..4], &3u32.to_le_bytes());
        assert_eq!(&m[4..8], &1u32.to_le_bytes());
        assert_eq!(&m[8..12], &2u32.to_le_bytes());
        assert_eq!(&m[12..16], &1u32.to_le_bytes());
        assert_eq!(&m[16..20], &1u32.to_le_bytes());
        assert_eq!(&m[20..], &[7, 9]);
    }

    #[test]
    fn a_page_gets_each_panel_s_newest_picture_once() {
        let mut s = State::default();
        let n1 = s.put_converted(0, 0, Bytes::from_static(b"a"));
        let n2 = s.put_converted(0, 1, Bytes::from_static(b"b"));
        let (all, upto) = s.pictures_after(0);
        assert_eq!((all.len(), upto), (2, n2));
        assert!(n1 < n2);
        // Panel 0 again: only its newest picture is new.
        let n3 = s.put_converted(0, 0, Bytes::from_static(b"c"));
        let (new, upto) = s.pictures_after(n2);
        assert_eq!((new, upto), (vec![Bytes::from_static(b"c")], n3));
        assert_eq!(s.pictures_after(n3).0.len(), 0);
    }

    #[test]
    fn replay_keeps_values_current() {
        let mut s = State::default();
        s.record(&ToPage::Slider {
            id: 0,
            label: "t".into(),
            value: 0.5,
            min: 0.0,
            max: 1.0,
        });
        s.record(&ToPage::Value { id: 0, value: 0.75 });
        s.set_value(0, 0.25);
        assert_eq!(s.log.len(), 1);
        assert_eq!(s.log[0]["value"], json!(0.25));
    }
}
