//! Tactile and electronic boards over serial: drivers, inference, simulator.
