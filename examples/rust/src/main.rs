//! A Rust host of atomic-africa's C API.
//!
//!   atomic_africa_host battle SEED   the C API page's example: RandomAgent(1) against HeuristicAgent on
//!                                    the default battle, then a refused action and the worked fire example
//!   atomic_africa_host play SEED N   games SEED..SEED+N-1, random agents on both sides, printing what the
//!                                    C test host (tests/support/capi_driver.c `play`) prints, line for line
use atomic_africa_host::{check_abi, fnv, Agent, Error, Game, Spec, FNV0};
use atomic_africa_host::ffi::{AA_AGENT_HEURISTIC, AA_AGENT_RANDOM};
use std::process::ExitCode;

/// capi_driver's agent seeds: AGENT_SEED + 2 * game seed + side.
const AGENT_SEED: u64 = 10000;

fn battle(seed: u64) -> Result<(), Error> {
    let spec = Spec::default_battle()?;
    let mut game = Game::new(&spec, seed)?;
    let mut agents = [Agent::new(AA_AGENT_RANDOM, 1)?, Agent::new(AA_AGENT_HEURISTIC, 0)?];
    let mut decisions = 0;
    while !game.is_over() {
        let player = game.current_player()? as usize;
        let action = agents[player].action(&game)?;
        game.apply(action)?;
        decisions += 1;
    }
    println!("decisions {}, winner {}", decisions, game.winner()?);
    if let Err(e) = game.apply(0) {
        println!("refused: {}", e.message);
    }
    let (markers, wounds) = spec.resolve_fire(13, 3, 2, 2, 1)?;   // Light cover
    println!("markers {}, wounds {}", markers, wounds);
    Ok(())
}

fn play(spec: &Spec, seed: u64) -> Result<(), Error> {
    let mut game = Game::new(spec, seed)?;
    let mut agents = [Agent::new(AA_AGENT_RANDOM, AGENT_SEED + 2 * seed)?,
                      Agent::new(AA_AGENT_RANDOM, AGENT_SEED + 2 * seed + 1)?];
    println!("G {}", seed);
    while !game.is_over() {
        let player = game.current_player()?;
        let legal: Vec<u8> = game.legal_actions()?.iter().flat_map(|a| a.to_le_bytes()).collect();
        let action = agents[player as usize].action(&game)?;
        game.apply(action)?;
        println!("S {} {} {:016x} {}", player, legal.len() / 4, fnv(FNV0, &legal), action);
    }
    let events: Vec<u8> = game.events()?.iter().flat_map(|v| v.to_le_bytes()).collect();
    print!("W {} {} {:016x}", game.winner()?, events.len() / 8, fnv(FNV0, &events));
    for p in 0..2 {
        let obs: Vec<u8> = game.observe(p)?.iter().flat_map(|v| v.to_le_bytes()).collect();
        print!(" {:016x}", fnv(FNV0, &obs));
    }
    println!();
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    check_abi().map_err(|e| e.to_string())?;
    let number = |i: usize| -> Result<u64, String> {
        args.get(i).ok_or("missing argument")?.parse::<u64>().map_err(|e| format!("{}: {}", args[i], e))
    };
    match args.get(1).map(String::as_str) {
        Some("battle") => battle(number(2)?).map_err(|e| e.to_string()),
        Some("play") => {
            let (first, n) = (number(2)?, number(3)?);
            let spec = Spec::default_battle().map_err(|e| e.to_string())?;
            (first..first + n).try_for_each(|s| play(&spec, s)).map_err(|e| e.to_string())
        }
        _ => Err("usage: atomic_africa_host battle SEED | play SEED N".to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("atomic_africa_host: {}", e);
            ExitCode::from(2)
        }
    }
}
