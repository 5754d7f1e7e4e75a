"""The game service: a press or a command becomes a decision (lobby, play, votes), the game's new state is stored
and its messages owed (service, store); turn timers, computer seats, results, users and chats."""
