//! Safe handles over atomic-africa's C API (`ffi`): a [`Spec`] (immutable, shared by its games), a
//! [`Game`] that borrows its spec (so the spec outlives it, as the header requires) and an [`Agent`].
//! Every failure is an [`Error`] with the library's status and message; every handle frees itself.
pub mod ffi;

use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_int;
use std::ptr;

/// A refused call: the `aa_status` and `aa_last_error()`'s message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: i32,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "status {}: {}", self.status, self.message)
    }
}

impl std::error::Error for Error {}

fn check(status: ffi::aa_status) -> Result<(), Error> {
    if status == ffi::AA_OK {
        return Ok(());
    }
    // SAFETY: aa_last_error returns this thread's NUL-terminated message, valid until its next failure.
    let message = unsafe { CStr::from_ptr(ffi::aa_last_error()) }.to_string_lossy().into_owned();
    Err(Error { status, message })
}

/// Whether the library linked is the ABI these bindings declare.
pub fn check_abi() -> Result<(), Error> {
    // SAFETY: no arguments, no state.
    let version = unsafe { ffi::aa_abi_version() };
    if version == ffi::AA_ABI_VERSION {
        Ok(())
    } else {
        Err(Error { status: -1, message: format!("library ABI {}, bindings ABI {}", version, ffi::AA_ABI_VERSION) })
    }
}

/// A battle (rules + scenario): `aa_spec_default` or `aa_spec_load`.
pub struct Spec(*mut ffi::aa_spec);

// SAFETY: a spec is immutable once made; the header allows sharing it between threads.
unsafe impl Send for Spec {}
unsafe impl Sync for Spec {}

impl Spec {
    /// The default battle with the packaged rules.
    pub fn default_battle() -> Result<Spec, Error> {
        let mut p = ptr::null_mut();
        // SAFETY: p is a valid out pointer.
        check(unsafe { ffi::aa_spec_default(&mut p) })?;
        Ok(Spec(p))
    }

    /// A spec from the bytes of a file written by `atomic-africa compile`.
    pub fn load(bytes: &[u8]) -> Result<Spec, Error> {
        let mut p = ptr::null_mut();
        // SAFETY: the slice is valid for its length; p is a valid out pointer.
        check(unsafe { ffi::aa_spec_load(bytes.as_ptr().cast(), bytes.len(), &mut p) })?;
        Ok(Spec(p))
    }

    /// Ids of the action space (room enough for any legal-action list).
    pub fn num_actions(&self) -> usize {
        // SAFETY: self.0 is a live spec.
        unsafe { ffi::aa_num_actions(self.0) as usize }
    }

    /// Floats in one observation.
    pub fn observation_size(&self) -> usize {
        // SAFETY: self.0 is a live spec.
        unsafe { ffi::aa_observation_size(self.0) as usize }
    }

    /// `aa_resolve_fire`: (markers, wounds) of one attack under this spec's rules.
    pub fn resolve_fire(&self, attack: i32, range_band: i32, defense: i32, armor: i32, cover: i32)
        -> Result<(i32, i32), Error> {
        let (mut markers, mut wounds) = (0 as c_int, 0 as c_int);
        // SAFETY: self.0 is a live spec; the out pointers are valid.
        check(unsafe { ffi::aa_resolve_fire(self.0, attack, range_band, defense, armor, cover, &mut markers,
                                            &mut wounds) })?;
        Ok((markers, wounds))
    }
}

impl Drop for Spec {
    fn drop(&mut self) {
        // SAFETY: owned, freed once; the games borrowing it are gone (their lifetime ends first).
        unsafe { ffi::aa_spec_free(self.0) }
    }
}

/// One game of a spec, which it borrows: `Game(scenario, seed)` of the Python package.
pub struct Game<'s> {
    ptr: *mut ffi::aa_game,
    spec: &'s Spec,
    legal: Vec<i32>,
}

impl<'s> Game<'s> {
    /// A new game seeded with `seed`.
    pub fn new(spec: &'s Spec, seed: u64) -> Result<Game<'s>, Error> {
        let mut p = ptr::null_mut();
        // SAFETY: spec.0 is live and outlives the game (the borrow); p is a valid out pointer.
        check(unsafe { ffi::aa_game_new(spec.0, seed, &mut p) })?;
        Ok(Game { ptr: p, spec, legal: vec![0; spec.num_actions()] })
    }

    /// An independent copy (state, random stream, events).
    pub fn try_clone(&self) -> Result<Game<'s>, Error> {
        let mut p = ptr::null_mut();
        // SAFETY: self.ptr is live; p is a valid out pointer.
        check(unsafe { ffi::aa_game_copy(self.ptr, &mut p) })?;
        Ok(Game { ptr: p, spec: self.spec, legal: vec![0; self.legal.len()] })
    }

    pub fn is_over(&self) -> bool {
        // SAFETY: self.ptr is live.
        unsafe { ffi::aa_game_is_over(self.ptr) == 1 }
    }

    /// The player to decide next (0 or 1); -1 once the game is over.
    pub fn current_player(&self) -> Result<i32, Error> {
        let mut p: c_int = -1;
        // SAFETY: self.ptr is live; the out pointer is valid.
        check(unsafe { ffi::aa_game_current_player(self.ptr, &mut p) })?;
        Ok(p)
    }

    /// The legal action ids, ascending.
    pub fn legal_actions(&mut self) -> Result<&[i32], Error> {
        // SAFETY: the buffer holds num_actions ids, the most the library writes.
        let n = unsafe { ffi::aa_game_legal_actions(self.ptr, self.legal.as_mut_ptr(), self.legal.len() as c_int) };
        if n < 0 {
            check(-n)?;
        }
        Ok(&self.legal[..n as usize])
    }

    /// Apply one decision of the player to move (refused ones change nothing).
    pub fn apply(&mut self, action: i32) -> Result<(), Error> {
        // SAFETY: self.ptr is live and not shared (&mut self).
        check(unsafe { ffi::aa_game_apply(self.ptr, action) })
    }

    /// The winner (0 or 1; -1 a draw) once the game is over.
    pub fn winner(&self) -> Result<i32, Error> {
        let mut w: c_int = 0;
        // SAFETY: self.ptr is live; the out pointer is valid.
        check(unsafe { ffi::aa_game_winner(self.ptr, &mut w) })?;
        Ok(w)
    }

    /// What `player` may see: observation_size floats.
    pub fn observe(&self, player: i32) -> Result<Vec<f32>, Error> {
        let mut out = vec![0f32; self.spec.observation_size()];
        // SAFETY: out holds observation_size floats.
        check(unsafe { ffi::aa_game_observe(self.ptr, player, out.as_mut_ptr(), out.len() as c_int) })?;
        Ok(out)
    }

    /// The event records since set-up (code, turn, count, values per event), borrowed until the game
    /// next changes.
    pub fn events(&self) -> Result<&[f64], Error> {
        let (mut p, mut n): (*const f64, usize) = (ptr::null(), 0);
        // SAFETY: self.ptr is live; the records stay valid while the game is unchanged (the borrow).
        check(unsafe { ffi::aa_game_events(self.ptr, &mut p, &mut n) })?;
        Ok(if n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } })
    }
}

impl Drop for Game<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { ffi::aa_game_free(self.ptr) }
    }
}

/// A built-in agent (`ffi::AA_AGENT_*`), with the Python classes' default options.
pub struct Agent(*mut ffi::aa_agent);

impl Agent {
    pub fn new(kind: i32, seed: u64) -> Result<Agent, Error> {
        let mut p = ptr::null_mut();
        // SAFETY: NULL options are the defaults; p is a valid out pointer.
        check(unsafe { ffi::aa_agent_new(kind, seed, ptr::null(), &mut p) })?;
        Ok(Agent(p))
    }

    /// The action this agent plays for the player to move (the game unchanged).
    pub fn action(&mut self, game: &Game) -> Result<i32, Error> {
        let mut a: i32 = -1;
        // SAFETY: both handles are live; the agent is not shared (&mut self).
        check(unsafe { ffi::aa_agent_action(self.0, game.ptr, &mut a) })?;
        Ok(a)
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { ffi::aa_agent_free(self.0) }
    }
}

/// FNV-1a 64 over bytes (the C test host's digests).
pub fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(1099511628211);
    }
    h
}

pub const FNV0: u64 = 14695981039346656037;
