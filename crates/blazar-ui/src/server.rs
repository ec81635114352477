//! The HTTP server: the page at `/<token>/`, its websocket at `/<token>/ws`, 403 for
//! anything else. One thread runs a current-thread tokio runtime with the server and the
//! websocket of each page (pictures are encoded on their own thread: `frames.rs`).

use crate::protocol::{self, Out};
use crate::Shared;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use blazar_runtime::ui::FromPage;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// The page, embedded in the binary.
const PAGE: &str = include_str!("page.html");

/// How long the run waits, after its last page closed, for a page to come back (a
/// reload) before it takes the form as closed.
const CLOSE_GRACE: Duration = Duration::from_millis(1500);

#[derive(Clone)]
struct App {
    token: Arc<str>,
    shared: Arc<Shared>,
}

pub(crate) fn spawn(
    listener: std::net::TcpListener,
    token: String,
    shared: Arc<Shared>,
) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the page's server: {e}"))?;
    let app = App {
        token: token.into(),
        shared,
    };
    std::thread::Builder::new()
        .name("blazar-ui".into())
        .spawn(move || {
            rt.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                    return;
                };
                let router = Router::new()
                    .route("/{token}/", get(page))
                    .route("/{token}/ws", get(socket))
                    .fallback(forbidden)
                    .with_state(app);
                let _ = axum::serve(listener, router).await;
            })
        })
        .map_err(|e| format!("cannot start the page's server: {e}"))?;
    Ok(())
}

async fn forbidden() -> Response {
    (StatusCode::FORBIDDEN, "forbidden\n").into_response()
}

async fn page(State(app): State<App>, Path(token): Path<String>) -> Response {
    if token != *app.token {
        return forbidden().await;
    }
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        PAGE,
    )
        .into_response()
}

async fn socket(
    State(app): State<App>,
    Path(token): Path<String>,
    ws: WebSocketUpgrade,
) -> Response {
    if token != *app.token {
        return forbidden().await;
    }
    ws.on_upgrade(move |s| client(s, app.shared))
}

fn message(out: Out) -> Message {
    match out {
        Out::Text(t) => Message::Text(t.into()),
        Out::Binary(b) => Message::Binary(b),
    }
}

/// One page: sends it the form as it stands, then what changes; passes on what the
/// user does.
async fn client(mut socket: WebSocket, shared: Arc<Shared>) {
    shared.clients.fetch_add(1, Ordering::SeqCst);
    // Subscribed under the lock that orders every message: nothing is missed or
    // sent twice.
    let (mut rx, replay) = {
        let st = shared.state.lock().expect("ui state");
        (shared.tx.subscribe(), st.replay())
    };
    // Pictures that waited for a page are encoded now.
    shared.wake();
    let mut ok = true;
    for m in replay {
        if socket.send(message(m)).await.is_err() {
            ok = false;
            break;
        }
    }
    while ok {
        tokio::select! {
            m = rx.recv() => match m {
                Ok(out) => ok = socket.send(message(out)).await.is_ok(),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => ok = false,
            },
            m = socket.recv() => match m {
                Some(Ok(Message::Text(t))) => {
                    if let Some(ev) = protocol::parse(t.as_str()) {
                        if let FromPage::Set { id, value } = ev {
                            shared.state.lock().expect("ui state").set_value(id, value);
                        }
                        let _ = shared.events.send(ev);
                        shared.flag.store(true, Ordering::Relaxed);
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => ok = false,
                Some(Ok(_)) => {}
            },
        }
    }
    if shared.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
        tokio::time::sleep(CLOSE_GRACE).await;
        if shared.clients.load(Ordering::SeqCst) == 0 && !shared.closed.swap(true, Ordering::SeqCst)
        {
            let _ = shared.events.send(FromPage::Closed);
            shared.flag.store(true, Ordering::Relaxed);
        }
    }
}
