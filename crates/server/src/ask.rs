//! One question, answered on the blocking pool: status lines and the final
//! answer come back over a channel, and dropping the [`AskRun`] (a client
//! that disconnected, an MCP `notifications/cancelled`) cancels it. The
//! answer path checks the flag between steps, stops with
//! [`almirah_core::Error::Cancelled`], and so releases its snapshot. At
//! most `max_concurrent_asks` run at once; beyond that [`Service::start_ask`]
//! refuses with 429 and `Retry-After`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use almirah_answer::classic::{Answer, Status};
use almirah_answer::mode::Mode;
use chrono::NaiveDate;
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::service::{Service, Stats, bump};
use crate::tokens::Principal;

/// A question to answer.
#[derive(Debug, Clone)]
pub struct AskRequest {
    /// The question (already checked: not empty, not too long).
    pub question: String,
    /// The date it is asked on (today, or the caller's `as_of`); the
    /// router may still move it to a session the question names.
    pub today: NaiveDate,
    /// The mode; `None` for the config's.
    pub mode: Option<Mode>,
}

/// What a running question reports.
#[derive(Debug)]
pub enum AskEvent {
    /// A status line ("Searching: hostel fee").
    Status(String),
    /// The end: the answer, or why there is none.
    Done(Box<Result<Answer, ApiError>>),
}

/// A running question. Dropping it cancels the question.
pub struct AskRun {
    /// Status lines, then one [`AskEvent::Done`].
    pub events: mpsc::UnboundedReceiver<AskEvent>,
    cancel: CancelOnDrop,
}

impl AskRun {
    /// Cancel now (also done on drop).
    pub fn cancel(&self) {
        self.cancel.0.store(true, Ordering::SeqCst);
    }

    /// The final answer, skipping status lines.
    ///
    /// # Errors
    /// The question's error; 500 if the answering task vanished.
    pub async fn finish(mut self) -> Result<Answer, ApiError> {
        while let Some(event) = self.events.recv().await {
            if let AskEvent::Done(result) = event {
                return *result;
            }
        }
        Err(ApiError::internal("the answering task ended without an answer"))
    }
}

struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Status lines into the channel; cancelled once the caller is gone.
struct ChannelStatus {
    tx: mpsc::UnboundedSender<AskEvent>,
    cancel: Arc<AtomicBool>,
}

impl Status for ChannelStatus {
    fn line(&self, text: &str) {
        if self.tx.send(AskEvent::Status(text.to_string())).is_err() {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst) || self.tx.is_closed()
    }
}

impl Service {
    /// Start answering `request` for `principal`.
    ///
    /// # Errors
    /// 429 ([`ApiError::busy`]) when every slot is taken.
    pub fn start_ask(self: &Arc<Self>, principal: &Principal, request: AskRequest) -> Result<AskRun, ApiError> {
        let Ok(permit) = self.asks.clone().try_acquire_owned() else {
            bump(&self.stats.asks_refused);
            return Err(ApiError::busy(self.limits.max_concurrent_asks, self.limits.retry_after_secs));
        };
        let (tx, events) = mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let status = ChannelStatus { tx: tx.clone(), cancel: cancel.clone() };
        let (service, audience) = (self.clone(), principal.audience.clone());
        bump(&self.stats.asks_started);
        self.stats.asks_in_flight.fetch_add(1, Ordering::SeqCst);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _in_flight = InFlight(service.stats.clone());
            let result = service.answer(&audience, &request, &status);
            count(&service.stats, &result);
            let _ = tx.send(AskEvent::Done(Box::new(result)));
        });
        Ok(AskRun { events, cancel: CancelOnDrop(cancel) })
    }

    fn answer(
        &self,
        audience: &almirah_core::Audience,
        request: &AskRequest,
        status: &dyn Status,
    ) -> Result<Answer, ApiError> {
        let model = (self.model)()
            .map_err(|e| ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, "model-unavailable", e))?;
        let reader = self.engine.reader_as(audience);
        let mode = request.mode.unwrap_or(self.mode);
        Ok(almirah_answer::mode::answer(&reader, model, &request.question, request.today, status, mode, &self.agent)?)
    }
}

/// Decrements the in-flight gauge however the answer ends.
struct InFlight(Arc<Stats>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.asks_in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

fn count(stats: &Stats, result: &Result<Answer, ApiError>) {
    match result {
        Ok(_) => bump(&stats.asks_answered),
        Err(e) if e.code == "cancelled" => bump(&stats.asks_cancelled),
        Err(_) => bump(&stats.asks_failed),
    }
}
