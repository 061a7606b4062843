"""Game-independent agents (random, ismcts) and the agent context."""

from .base import Agent, AgentContext, available_agents, make_agent, parse_spec
from .random_agent import RandomAgent

__all__ = ["Agent", "AgentContext", "RandomAgent", "available_agents", "make_agent", "parse_spec"]
