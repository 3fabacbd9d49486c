//! A socket's message rate: `rate` messages a second, bursts of twice that. governor's
//! direct limiter (its GCRA is the token bucket this was written as by hand), on tokio's
//! clock, so that a test with paused time drives it as it drives the rest of the socket.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

/// tokio's clock as governor reads one: the time since the limiter was made.
#[derive(Clone, Debug)]
pub(crate) struct TokioClock {
    origin: tokio::time::Instant,
}

impl Clock for TokioClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// One socket's limit on the messages it sends (pongs included).
pub(crate) struct RateLimit(
    RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<Duration>>,
);

impl RateLimit {
    /// `rate` a second (at least one), bursts of twice as many; full at the start.
    pub(crate) fn new(rate: u32) -> RateLimit {
        let per_second = NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN);
        let burst = per_second.saturating_mul(NonZeroU32::new(2).unwrap_or(NonZeroU32::MIN));
        let clock = TokioClock {
            origin: tokio::time::Instant::now(),
        };
        let quota = Quota::per_second(per_second).allow_burst(burst);
        RateLimit(RateLimiter::direct_with_clock(quota, clock))
    }

    /// One message more, if the rate allows it now.
    pub(crate) fn allow(&mut self) -> bool {
        self.0.check().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimit;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn a_burst_of_twice_the_rate_then_the_rate() {
        let mut limit = RateLimit::new(5);
        let burst = (0..20).filter(|_| limit.allow()).count();
        assert_eq!(burst, 10, "a burst of twice the rate");
        assert!(!limit.allow());
        tokio::time::advance(Duration::from_millis(200)).await;
        assert!(limit.allow(), "one more every fifth of a second");
        assert!(!limit.allow());
        tokio::time::advance(Duration::from_secs(10)).await;
        assert_eq!(
            (0..20).filter(|_| limit.allow()).count(),
            10,
            "never more than the burst"
        );
    }
}
