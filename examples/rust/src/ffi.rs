//! Hand-written declarations of `atomic_africa.h` (src/aa_core/include), the functions this crate
//! calls: each is the header's prototype in Rust's C types. `AA_ABI_VERSION` is checked against the
//! library at start-up (`crate::check_abi`).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// The header's `AA_ABI_VERSION` these declarations were written against.
pub const AA_ABI_VERSION: c_int = 2;

pub type aa_status = c_int;
pub const AA_OK: aa_status = 0;

pub const AA_AGENT_RANDOM: c_int = 0;
pub const AA_AGENT_HEURISTIC: c_int = 1;
pub const AA_AGENT_GREEDY: c_int = 2;
pub const AA_AGENT_DOCTRINE: c_int = 3;
pub const AA_AGENT_ISMCTS: c_int = 4;

/// Opaque handles: only ever behind pointers the library hands out.
#[repr(C)]
pub struct aa_spec {
    _private: [u8; 0],
}
#[repr(C)]
pub struct aa_game {
    _private: [u8; 0],
}
#[repr(C)]
pub struct aa_agent {
    _private: [u8; 0],
}

/// `aa_agent_options`: the Python agents' constructor arguments.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct aa_agent_options {
    pub wound_value: f64,
    pub marker_value: f64,
    pub rally_value: f64,
    pub cover_value: f64,
    pub reserve_value: f64,
    pub standoff_cm: f64,
}

extern "C" {
    pub fn aa_abi_version() -> c_int;
    pub fn aa_last_error() -> *const c_char;

    pub fn aa_spec_default(out: *mut *mut aa_spec) -> aa_status;
    pub fn aa_spec_load(data: *const c_void, len: usize, out: *mut *mut aa_spec) -> aa_status;
    pub fn aa_spec_free(spec: *mut aa_spec);
    pub fn aa_num_actions(spec: *const aa_spec) -> c_int;
    pub fn aa_observation_size(spec: *const aa_spec) -> c_int;

    pub fn aa_game_new(spec: *const aa_spec, seed: u64, out: *mut *mut aa_game) -> aa_status;
    pub fn aa_game_copy(game: *const aa_game, out: *mut *mut aa_game) -> aa_status;
    pub fn aa_game_free(game: *mut aa_game);
    pub fn aa_game_is_over(game: *const aa_game) -> c_int;
    pub fn aa_game_current_player(game: *const aa_game, player: *mut c_int) -> aa_status;
    pub fn aa_game_legal_actions(game: *const aa_game, buf: *mut i32, cap: c_int) -> c_int;
    pub fn aa_game_apply(game: *mut aa_game, action: i32) -> aa_status;
    pub fn aa_game_winner(game: *const aa_game, winner: *mut c_int) -> aa_status;
    pub fn aa_game_observe(game: *const aa_game, player: c_int, out: *mut f32, cap: c_int) -> aa_status;
    pub fn aa_game_events(game: *const aa_game, records: *mut *const f64, n: *mut usize) -> aa_status;
    pub fn aa_game_record_events(game: *mut aa_game, on: c_int) -> aa_status;

    pub fn aa_agent_defaults(out: *mut aa_agent_options) -> aa_status;
    pub fn aa_agent_new(kind: c_int, seed: u64, options: *const aa_agent_options, out: *mut *mut aa_agent)
        -> aa_status;
    pub fn aa_agent_free(agent: *mut aa_agent);
    pub fn aa_agent_action(agent: *mut aa_agent, game: *const aa_game, action: *mut i32) -> aa_status;

    pub fn aa_resolve_fire(spec: *const aa_spec, attack: c_int, range_band: c_int, defense: c_int, armor: c_int,
                           cover: c_int, markers: *mut c_int, wounds: *mut c_int) -> aa_status;
}
