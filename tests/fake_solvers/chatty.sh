#!/bin/sh
# A solver that prints without end: its output must be capped, not held in memory.
exec yes "c chatter chatter chatter chatter chatter chatter chatter chatter chatter chatter"
