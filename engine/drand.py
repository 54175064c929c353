"""The public drand chains a daily may use: their schemes and what their operators publish
(public key, genesis, period), so a checker needs no server's word for a beacon's key. Kept
apart from the BLS arithmetic (engine/beacon_check.py) so that settings can name them cheaply.
"""

from __future__ import annotations

#: quicknet's scheme: signatures on G1 (48 bytes), public key on G2 (96 bytes), RFC 9380 hashing.
QUICKNET = "bls-unchained-g1-rfc9380"
#: the default chain's scheme: signatures on G2 (96 bytes) over the previous signature too.
CHAINED = "pedersen-bls-chained"
#: the default scheme's unchained form: signatures on G2 over the round alone.
UNCHAINED = "pedersen-bls-unchained"
SCHEMES = (QUICKNET, CHAINED, UNCHAINED)

QUICKNET_CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
DEFAULT_CHAIN = "8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce"

#: chain hash -> (scheme, public key in hex, genesis in Unix seconds, period in seconds).
KNOWN_CHAINS: dict[str, tuple[str, str, int, int]] = {
    QUICKNET_CHAIN: (
        QUICKNET,
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776"
        "a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e"
        "76eae8991ef5ece45a", 1692803367, 3),
    DEFAULT_CHAIN: (
        CHAINED,
        "868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a940"
        "2801af31", 1595431050, 30),
}
