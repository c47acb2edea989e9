"""Message-route graphs: networkx for one route, Spark and GraphFrames for a whole network."""
