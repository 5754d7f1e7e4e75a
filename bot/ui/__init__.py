"""What players read and press: the table and hand messages (render, hand, slots), cards as text (labels), the
buttons' callback data (callbacks), longer texts and the variants' words, and the translations (i18n, locales/)."""
