#!/usr/bin/env python3
"""tb/fuzz/make_seeds.py - write the seed corpus tb/fuzz/corpus/{ib,pfc,model}/ (committed).

Seeds are byte streams in the layout of fuzz_input.h, generated from a fixed seed: steady
well-formed traffic, traffic with flow-control words, bursts of glitches. libFuzzer starts from
them instead of from nothing. Run again only to change the seeds: python3 tb/fuzz/make_seeds.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 5  # fixed, so that the committed seeds can be made again
PORTS = 3  # tb/fuzz/fuzz_{ib,pfc}.ini


def stream(rng, cycles, p_pkt, p_fc, p_other, p_raw):
    """One byte sequence: per cycle and port, one word's bytes (fuzz_input.h)."""
    out = bytearray()
    rem = [0] * PORTS
    for _ in range(cycles):
        for p in range(PORTS):
            if rem[p]:
                out.append(rng.randrange(0x00, 0xF0))
                rem[p] -= 1
                continue
            r = rng.random()
            if r < p_pkt:
                b = rng.randrange(0x80, 0xC0)
                x = rng.randrange(256)
                out += bytes([b, x])
                rem[p] = x & 7
            elif r < p_pkt + p_fc:
                out.append(rng.randrange(0xC0, 0xE0))
                out += bytes(rng.randrange(256) for _ in range(4))
            elif r < p_pkt + p_fc + p_other:
                out.append(rng.randrange(0xE0, 0xF0))
                out += bytes(rng.randrange(256) for _ in range(4))
            elif r < p_pkt + p_fc + p_other + p_raw:
                out.append(rng.randrange(0xF0, 0x100))
                out += bytes(rng.randrange(256) for _ in range(6))
            else:
                out.append(rng.randrange(0x00, 0x80))
    return bytes(out)


def main():
    rng = random.Random(SEED)
    kinds = [  # name, cycles, packet, own fc, other fc, raw
        ("steady", 400, 0.30, 0.02, 0.0, 0.0),
        ("heavy", 600, 0.60, 0.05, 0.0, 0.0),
        ("fc", 300, 0.20, 0.30, 0.0, 0.0),
        ("glitch", 300, 0.25, 0.05, 0.05, 0.05),
    ]
    for d in ("ib", "pfc", "model"):
        os.makedirs(os.path.join(HERE, "corpus", d), exist_ok=True)
        for name, cyc, a, b, c, e in kinds:
            data = stream(rng, cyc, a, b, c, e)
            if d == "model":  # two configuration bytes first (fuzz_model.c)
                for cfg in (0x00, 0x01, 0x0B):
                    path = os.path.join(HERE, "corpus", d, f"{name}-{cfg:02x}")
                    with open(path, "wb") as f:
                        f.write(bytes([cfg, rng.randrange(256)]) + data)
                continue
            with open(os.path.join(HERE, "corpus", d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
