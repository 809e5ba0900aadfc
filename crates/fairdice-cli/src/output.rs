//! Shared output helpers: number formatting, tables, bars, JSON.
