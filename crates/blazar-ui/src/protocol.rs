//! The websocket protocol between the server and the page.
//!
//! Server to page, JSON text (`t` names the message):
//! `{"t":"form","title":..}`, `{"t":"heading","text":..}`,
//! `{"t":"slider","id":..,"label":..,"value":..,"min":..,"max":..}`,
//! `{"t":"checkbox","id":..,"label":..,"value":true|false}`,
//! `{"t":"button","id":..,"label":..}`, `{"t":"display","id":..,"rows":..,"cols":..}`
//! (a display added, or split by `subplot`), `{"t":"value","id":..,"value":..}` (the
//! program set a control); and binary messages, a picture for a display's panel: the
//! display's id and the panel's index as two little-endian u32, then a PNG file.
//!
//! Page to server, JSON text: `{"t":"set","id":..,"value":..}` (a slider moved, a box
//! ticked: 1 or 0) and `{"t":"click","id":..}`.
//!
//! [`State`] keeps what a page that connects (or reloads) needs to show the form as it
//! stands: the messages so far, with each control's value kept current, and the newest
//! picture of each panel.

use axum::body::Bytes;
use blazar_runtime::ui::{Frame, FromPage, ToPage};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A message for the pages.
#[derive(Clone, Debug)]
pub enum Out {
    Text(String),
    Binary(Bytes),
}

#[derive(Default)]
pub struct State {
    /// Every message so far, in order, as a new page must replay them.
    pub log: Vec<Value>,
    /// The panels of displays, by (display, panel).
    pub panels: BTreeMap<(usize, usize), Panel>,
}

#[derive(Default)]
pub struct Panel {
    /// The newest picture not yet encoded.
    pub raw: Option<Frame>,
    /// The newest picture sent, as its binary message.
    pub sent: Option<Bytes>,
}

impl State {
    /// Records a message of the program and returns it for the pages.
    pub fn record(&mut self, msg: &ToPage) -> Out {
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
        Out::Text(v.to_string())
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

    /// What a page that connects now is sent first.
    pub fn replay(&self) -> Vec<Out> {
        let text = self.log.iter().map(|m| Out::Text(m.to_string()));
        let pictures = self.panels.values().filter_map(|p| p.sent.clone());
        text.chain(pictures.map(Out::Binary)).collect()
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

/// A message of the page; `None` for one that is not of the protocol (ignored).
pub fn parse(text: &str) -> Option<FromPage> {
    let v: Value = serde_json::from_str(text).ok()?;
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

/// A picture's binary message: display, panel, PNG.
pub fn picture(display: usize, panel: usize, png: &[u8]) -> Bytes {
    let mut b = Vec::with_capacity(8 + png.len());
    b.extend_from_slice(&(display as u32).to_le_bytes());
    b.extend_from_slice(&(panel as u32).to_le_bytes());
    b.extend_from_slice(png);
    Bytes::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_messages_parse() {
        assert_eq!(
            parse(r#"{"t":"set","id":2,"value":0.25}"#),
            Some(FromPage::Set { id: 2, value: 0.25 })
        );
        assert_eq!(
            parse(r#"{"t":"set","id":1,"value":true}"#),
            Some(FromPage::Set { id: 1, value: 1.0 })
        );
        assert_eq!(
            parse(r#"{"t":"click","id":4}"#),
            Some(FromPage::Click { id: 4 })
        );
        assert_eq!(parse(r#"{"t":"set","id":-1,"value":1}"#), None);
        assert_eq!(parse("not json"), None);
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
