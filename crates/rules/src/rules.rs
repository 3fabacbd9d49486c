use crate::Ruleset;

/// Which 4x8 game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Omweso (docs/rules.md#1-omweso).
    Omweso,
    /// Mweiso (docs/rules.md#2-mweiso-kagera-murray-1951).
    Mweiso,
}

/// The rules a 4x8 position is played under: the game and its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    /// The optional akakyala victory (docs/rules.md#15-end-of-the-game, 1.5.4; Omweso only).
    pub akakyala: bool,
}

impl Rules {
    /// Omweso without the optional akakyala victory.
    pub const OMWESO: Rules = Rules {
        variant: Variant::Omweso,
        akakyala: false,
    };
    /// Omweso as in the `tournament` preset: akakyala on.
    pub const OMWESO_TOURNAMENT: Rules = Rules {
        variant: Variant::Omweso,
        akakyala: true,
    };
    /// Mweiso.
    pub const MWEISO: Rules = Rules {
        variant: Variant::Mweiso,
        akakyala: false,
    };

    /// The rules of a 4x8 ruleset (`None` for Oware, which has its own board).
    #[must_use]
    pub const fn for_ruleset(ruleset: Ruleset) -> Option<Rules> {
        match ruleset {
            Ruleset::Omweso => Some(Rules::OMWESO),
            Ruleset::Mweiso => Some(Rules::MWEISO),
            Ruleset::Oware => None,
        }
    }

    #[must_use]
    pub const fn ruleset(self) -> Ruleset {
        match self.variant {
            Variant::Omweso => Ruleset::Omweso,
            Variant::Mweiso => Ruleset::Mweiso,
        }
    }

    /// The pits a lap may start clockwise from, as a 16-bit set of side indices:
    /// Omweso's four (0, 1, 14, 15), Mweiso's two (0, 14).
    #[must_use]
    pub(crate) const fn reverse_pits(self) -> u16 {
        match self.variant {
            Variant::Omweso => 0b1100_0000_0000_0011,
            Variant::Mweiso => 0b0100_0000_0000_0001,
        }
    }

    #[must_use]
    pub const fn is_reverse_pit(self, index: u8) -> bool {
        index < 16 && self.reverse_pits() & (1 << index) != 0
    }
}

/// Mweiso's opening turn starts from an outer pit other than the 4th and 5th from the
/// player's left (indices 3 and 4).
pub(crate) const OPENING_PITS: u16 = 0b1110_0111;

/// [`OPENING_PITS`] as a byte mask over a side's `u128`.
pub(crate) const OPENING_BYTES: u128 = u128::from_le_bytes([
    0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0,
]);
