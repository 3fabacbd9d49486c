//! A deliberately naive model of an Omweso turn, written straight from docs/rules.md#12-a-turn to #14-never-ending-turns
//! and sharing no code with the engine: seeds are dropped one at a time, and every state
//! of the turn is kept in a set to find the first repetition. The property tests check the
//! engine against it.

use std::collections::HashSet;

/// One lap: origin index, clockwise?, seeds, landing index, kind, captured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefLap {
    pub from: u8,
    pub clockwise: bool,
    pub seeds: u8,
    pub to: u8,
    pub kind: &'static str,
    pub captured: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefTurn {
    /// Both sides after the turn, `[mover, opponent]`, each in its anticlockwise order.
    pub mine: [u8; 16],
    pub theirs: [u8; 16],
    pub laps: Vec<RefLap>,
    pub end: &'static str,
    pub captured: u32,
    /// Physical columns captured in (0 = A), in order of capture, repeats kept.
    pub columns: Vec<u8>,
}

const REVERSE: [u8; 4] = [0, 1, 14, 15];

fn step(pos: u8, clockwise: bool) -> u8 {
    if clockwise {
        (pos + 15) % 16
    } else {
        (pos + 1) % 16
    }
}

/// The physical column of the mover's pit `i`: South's 0..7 are A1..H1, 8..15 are H2..A2;
/// North's 0..7 are H4..A4, 8..15 are A3..H3.
pub fn column(south: bool, i: u8) -> u8 {
    match (south, i < 8) {
        (true, true) => i,
        (true, false) => 15 - i,
        (false, true) => 7 - i,
        (false, false) => i - 8,
    }
}

/// Sows `hand` seeds one by one from `origin`; returns the landing pit.
fn sow(mine: &mut [u8; 16], origin: u8, hand: u8, clockwise: bool) -> u8 {
    let mut pos = origin;
    for _ in 0..hand {
        pos = step(pos, clockwise);
        mine[pos as usize] += 1;
    }
    pos
}

fn captures(mine: &[u8; 16], theirs: &[u8; 16], l: u8) -> bool {
    l >= 8 && mine[l as usize] >= 2 && theirs[(23 - l) as usize] > 0 && theirs[(l - 8) as usize] > 0
}

/// Would a clockwise lap of `hand` from `origin` capture with its last seed?
fn direct_clockwise_capture(mine: &[u8; 16], theirs: &[u8; 16], origin: u8, hand: u8) -> bool {
    let mut copy = *mine;
    let l = sow(&mut copy, origin, hand, true);
    captures(&copy, theirs, l)
}

/// Plays a turn of the mover (`south` says which side that is) from `start`, with the
/// decision answers `answers` ('a' or 'c'), under `budget`. Errors name a missing,
/// extra or impossible answer, or an illegal start.
pub fn play(
    mut mine: [u8; 16],
    mut theirs: [u8; 16],
    south: bool,
    start: u8,
    clockwise_start: bool,
    answers: &[char],
    budget: Option<u64>,
) -> Result<RefTurn, String> {
    if mine[start as usize] < 2 {
        return Err("too few seeds".into());
    }
    let mut origin = start;
    let mut hand = mine[start as usize];
    mine[start as usize] = 0;
    if clockwise_start
        && !(REVERSE.contains(&start) && direct_clockwise_capture(&mine, &theirs, origin, hand))
    {
        return Err("clockwise start not allowed".into());
    }
    let mut clockwise = clockwise_start;
    let mut answers = answers.iter();
    let mut seen = HashSet::new();
    let mut turn = RefTurn {
        mine,
        theirs,
        laps: Vec::new(),
        end: "ended",
        captured: 0,
        columns: Vec::new(),
    };
    let mut sown = 0u64;
    loop {
        if !seen.insert((mine, theirs, origin, hand, clockwise)) {
            turn.end = "never-ending";
            break;
        }
        if sown + u64::from(hand) > budget.unwrap_or(u64::MAX) {
            turn.end = "budget";
            break;
        }
        let l = sow(&mut mine, origin, hand, clockwise);
        sown += u64::from(hand);
        let mut lap = RefLap {
            from: origin,
            clockwise,
            seeds: hand,
            to: l,
            kind: "end",
            captured: 0,
        };
        if mine[l as usize] == 1 {
            turn.laps.push(lap);
            hand = 0;
            break;
        }
        let (choice_possible, next_origin, next_hand) = if captures(&mine, &theirs, l) {
            let taken = theirs[(23 - l) as usize] + theirs[(l - 8) as usize];
            theirs[(23 - l) as usize] = 0;
            theirs[(l - 8) as usize] = 0;
            lap.kind = "capture";
            lap.captured = taken;
            turn.captured += u32::from(taken);
            turn.columns.push(column(south, l));
            // Seeds captured by a clockwise lap may go clockwise if that captures directly.
            let choice = clockwise && direct_clockwise_capture(&mine, &theirs, origin, taken);
            (choice, origin, taken)
        } else {
            lap.kind = "relay";
            let lifted = mine[l as usize];
            mine[l as usize] = 0;
            let choice =
                REVERSE.contains(&l) && direct_clockwise_capture(&mine, &theirs, l, lifted);
            (choice, l, lifted)
        };
        turn.laps.push(lap);
        origin = next_origin;
        hand = next_hand;
        clockwise = if choice_possible {
            match answers.next() {
                Some('a') => false,
                Some('c') => true,
                Some(other) => return Err(format!("bad answer {other}")),
                None => return Err("missing answer".into()),
            }
        } else {
            false
        };
    }
    if answers.next().is_some() {
        return Err("extra answer".into());
    }
    mine[origin as usize] += hand;
    turn.mine = mine;
    turn.theirs = theirs;
    Ok(turn)
}
