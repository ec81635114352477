//! The HTTP server: the page at `/<token>/`, its websocket at `/<token>/ws`, 403 for
//! anything else. One thread runs a current-thread tokio runtime with the server and the
//! websocket of each page (pictures are converted on their own thread: `frames.rs`;
//! each page's task sends it the newest ones when it has drawn those it was sent).

use crate::protocol::{self, FromClient};
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

fn message(text: String) -> Message {
    Message::Text(text.into())
}

/// One page: sends it the form as it stands, then what changes, and the pictures as
/// it is ready for them; passes on what the user does.
async fn client(mut socket: WebSocket, shared: Arc<Shared>) {
    shared.clients.fetch_add(1, Ordering::SeqCst);
    // Subscribed under the lock that orders every message: nothing is missed or
    // sent twice.
    let (mut rx, replay) = {
        let st = shared.state.lock().expect("ui state");
        (shared.tx.subscribe(), st.replay())
    };
    let mut pictures = shared.pictures.subscribe();
    let mut page = Page::default();
    let mut ok = true;
    for m in replay {
        if socket.send(message(m)).await.is_err() {
            ok = false;
            break;
        }
    }
    // Pictures that waited for a page: those converted already, else a wake-up.
    ok = ok && page.offer(&mut socket, &mut rx, &shared).await;
    while ok {
        tokio::select! {
            biased;
            m = rx.recv() => match m {
                Ok(out) => ok = socket.send(message(out)).await.is_ok(),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => ok = false,
            },
            m = socket.recv() => match m {
                Some(Ok(Message::Text(t))) => match protocol::parse(t.as_str()) {
                    Some(FromClient::Ack(n)) => {
                        page.unacknowledged = page.unacknowledged.saturating_sub(n);
                        if page.unacknowledged == 0 {
                            ok = page.offer(&mut socket, &mut rx, &shared).await;
                        }
                    }
                    Some(FromClient::Event(ev)) => {
                        if let FromPage::Set { id, value } = ev {
                            shared.state.lock().expect("ui state").set_value(id, value);
                        }
                        let _ = shared.events.send(ev);
                        shared.flag.store(true, Ordering::Relaxed);
                    }
                    None => {}
                },
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => ok = false,
                Some(Ok(_)) => {}
            },
            r = pictures.changed() => match r {
                Ok(()) if page.unacknowledged == 0 => {
                    ok = page.offer(&mut socket, &mut rx, &shared).await;
                }
                Ok(()) => {}
                Err(_) => ok = false,
            },
        }
    }
    page.set_ready(&shared, false);
    if shared.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
        tokio::time::sleep(CLOSE_GRACE).await;
        if shared.clients.load(Ordering::SeqCst) == 0 && !shared.closed.swap(true, Ordering::SeqCst)
        {
            let _ = shared.events.send(FromPage::Closed);
            shared.flag.store(true, Ordering::Relaxed);
        }
    }
}

/// What one page was sent of the pictures.
#[derive(Default)]
struct Page {
    /// The number of the newest converted picture it was sent.
    seen: u64,
    /// Pictures it was sent and has not acknowledged.
    unacknowledged: u64,
    /// Whether it counts in `Shared::ready`.
    ready: bool,
}

impl Page {
    fn set_ready(&mut self, shared: &Shared, ready: bool) {
        if ready != self.ready {
            self.ready = ready;
            if ready {
                shared.ready.fetch_add(1, Ordering::SeqCst);
                shared.wake();
            } else {
                shared.ready.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }

    /// With every picture acknowledged: sends the pictures converted since those it
    /// was sent, or, when there are none, counts the page as ready for the next ones.
    /// False when the page is gone.
    async fn offer(
        &mut self,
        socket: &mut WebSocket,
        rx: &mut tokio::sync::broadcast::Receiver<String>,
        shared: &Shared,
    ) -> bool {
        // The messages broadcast before the pictures were converted go first: a
        // display reaches the page before its picture.
        loop {
            match rx.try_recv() {
                Ok(out) => {
                    if socket.send(message(out)).await.is_err() {
                        return false;
                    }
                }
                Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
        let (new, upto) = shared
            .state
            .lock()
            .expect("ui state")
            .pictures_after(self.seen);
        if new.is_empty() {
            self.set_ready(shared, true);
            return true;
        }
        self.set_ready(shared, false);
        self.seen = upto;
        for msg in new {
            if socket.send(Message::Binary(msg)).await.is_err() {
                return false;
            }
            self.unacknowledged += 1;
        }
        true
    }
}
