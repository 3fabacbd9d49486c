//! How an open socket learns that its device was signed out: each device with sockets
//! open has a cancellation token its sockets wait on. Signing out one device ends its
//! sockets; "sign out everywhere" (or an account disabled) ends every device of the person.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// The devices that have sockets open: for each, its person, the token its sockets wait
/// on and how many of them hold it (an entry leaves with the last socket).
type ByDevice = HashMap<Uuid, (Uuid, CancellationToken, usize)>;

#[derive(Debug, Default)]
pub(super) struct Ends {
    by_device: Arc<Mutex<ByDevice>>,
}

impl Ends {
    pub(super) fn watch(&self, device: Uuid, person: Uuid) -> Watched {
        let token = match self.by_device.lock() {
            Ok(mut map) => {
                let entry = map
                    .entry(device)
                    .or_insert_with(|| (person, CancellationToken::new(), 0));
                entry.2 += 1;
                entry.1.clone()
            }
            // A poisoned map: this socket is not told, and holds no place in it.
            Err(_) => CancellationToken::new(),
        };
        Watched {
            device,
            token,
            by_device: Arc::clone(&self.by_device),
        }
    }

    /// The devices with sockets open now.
    pub(super) fn watched(&self) -> Vec<Uuid> {
        self.by_device
            .lock()
            .map(|map| map.keys().copied().collect())
            .unwrap_or_default()
    }

    /// Ends the sockets of `device`.
    pub(super) fn end_device(&self, device: Uuid) {
        let ended = self
            .by_device
            .lock()
            .ok()
            .and_then(|mut map| map.remove(&device));
        if let Some((_, token, _)) = ended {
            token.cancel();
        }
    }

    /// Ends the sockets of every device of `person` but `keep`.
    pub(super) fn end_person(&self, person: Uuid, keep: Option<Uuid>) {
        let ended: Vec<CancellationToken> = match self.by_device.lock() {
            Ok(mut map) => {
                let devices: Vec<Uuid> = map
                    .iter()
                    .filter(|(device, (owner, _, _))| *owner == person && Some(**device) != keep)
                    .map(|(device, _)| *device)
                    .collect();
                devices
                    .iter()
                    .filter_map(|device| map.remove(device).map(|(_, token, _)| token))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for token in ended {
            token.cancel();
        }
    }
}

#[derive(Debug)]
pub(super) struct Watched {
    device: Uuid,
    token: CancellationToken,
    by_device: Arc<Mutex<ByDevice>>,
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let Ok(mut map) = self.by_device.lock() {
            if let Some(entry) = map.get_mut(&self.device) {
                // Once ended, the entry this socket counted in is gone (a later one is
                // another's).
                if !self.token.is_cancelled() {
                    entry.2 = entry.2.saturating_sub(1);
                    if entry.2 == 0 {
                        map.remove(&self.device);
                    }
                }
            }
        }
    }
}

/// Held by a socket: completes when its device is signed out.
#[derive(Debug)]
pub struct SessionEnd(pub(super) Option<Watched>);

impl SessionEnd {
    /// Completes when the device is signed out; never for a socket without a session.
    pub async fn ended(&self) {
        match &self.0 {
            Some(watched) => watched.token.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn signing_out_a_device_ends_its_sockets_and_no_others() {
        let ends = Ends::default();
        let (person, phone, laptop) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let on_phone = SessionEnd(Some(ends.watch(phone, person)));
        let on_laptop = SessionEnd(Some(ends.watch(laptop, person)));
        ends.end_device(phone);
        assert!(on_phone.0.as_ref().is_some_and(|w| w.token.is_cancelled()));
        assert!(!on_laptop.0.as_ref().is_some_and(|w| w.token.is_cancelled()));
        // Everywhere but the laptop: nothing more ends.
        ends.end_person(person, Some(laptop));
        assert!(!on_laptop.0.as_ref().is_some_and(|w| w.token.is_cancelled()));
        ends.end_person(person, None);
        assert!(on_laptop.0.as_ref().is_some_and(|w| w.token.is_cancelled()));
        on_laptop.ended().await;
    }
}
