"""Fabric sizing, network checks, collectives and fabric technologies."""
