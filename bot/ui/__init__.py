"""What players read and press: the table and hand messages (render, hand, a seat's view), cards as text
(labels), places, the buttons' callback data (callbacks), longer texts, the variants' words, and the
translations (i18n, locales/)."""
