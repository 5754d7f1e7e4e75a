"""The game service: a press or a command becomes a decision (lobby, play, votes), the game's new state is stored
with every message it owes (service, store, slots); turn timers, computer seats, results, users and chats."""
