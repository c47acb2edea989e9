"""The settings a SparkSession of the pipeline gets (graph.pipeline.session.session_settings)."""

from __future__ import annotations

from graph.pipeline.session import LOCAL_JVM_OPTIONS, quiet_config, session_settings


def test_local_mode_gets_the_quick_jvm_before_the_callers_options():
    quiet = quiet_config("off")["spark.driver.extraJavaOptions"]
    got = session_settings("local[2]", {"spark.driver.extraJavaOptions": quiet})
    assert got["spark.driver.extraJavaOptions"] == f"{LOCAL_JVM_OPTIONS} {quiet}"
    assert session_settings("local[*]")["spark.driver.extraJavaOptions"] == LOCAL_JVM_OPTIONS


def test_callers_own_jvm_tuning_and_clusters_are_left_alone():
    mine = "-XX:+UseG1GC -Dx=1"   # two collectors would stop the JVM from starting
    got = session_settings("local[2]", {"spark.driver.extraJavaOptions": mine})
    assert got["spark.driver.extraJavaOptions"] == mine
    cluster = session_settings("spark://10.0.0.1:7077")
    assert "spark.driver.extraJavaOptions" not in cluster
    assert "spark.sql.shuffle.partitions" not in cluster
    assert session_settings(None, driver_memory="6g")["spark.driver.memory"] == "6g"


def test_big_local_masters_keep_the_jvms_own_compiler_and_collectors(monkeypatch):
    """The quick JVM was measured on 2 cores: local masters of more than QUICK_JVM_CORES
    cores (and local-cluster) keep the JVM's defaults."""
    from graph.pipeline import session

    monkeypatch.setattr(session.os, "cpu_count", lambda: 64)
    for master in ("local[*]", "local[16]", "local[8,3]", "local-cluster[2,1,1024]"):
        assert "spark.driver.extraJavaOptions" not in session_settings(master), master
    for master in ("local", "local[2]", "local[4, 2]"):
        assert session_settings(master)["spark.driver.extraJavaOptions"] == \
            LOCAL_JVM_OPTIONS, master
    assert session_settings("local[16]")["spark.sql.shuffle.partitions"] == "256"
