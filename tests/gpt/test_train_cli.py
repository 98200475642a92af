"""`python -m engine.train` (what `nox -s train` runs)."""

import pytest

from engine.train import main


def test_cli_trains_reports_progress_and_samples(capsys):
    assert (
        main(
            [
                "--steps",
                "4",
                "--log-every",
                "2",
                "--samples",
                "3",
                "--temperature",
                "0.5",
                "--eval-names",
                "20",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "4,192 parameters" in out
    assert "step     2/4" in out and "step     4/4" in out
    assert "held-out loss before training" in out and "held-out loss after training" in out
    assert "3 new names (temperature 0.5)" in out


@pytest.mark.parametrize("args", [["--steps", "0"], ["--temperature", "-1"], ["--lr", "0"]])
def test_cli_rejects_bad_options(args, capsys):
    with pytest.raises(SystemExit):
        main(args)
    assert "error" in capsys.readouterr().err


def test_cli_refuses_a_folder_to_save_to_before_training(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--save", str(tmp_path)])
    assert "--save needs a file path" in capsys.readouterr().err


def test_cli_says_when_the_checkpoint_cannot_be_written(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    argv = [
        "--steps",
        "1",
        "--samples",
        "0",
        "--eval-names",
        "2",
        "--save",
        str(blocker / "m.json"),
    ]
    assert main(argv) == 1
    assert "could not write the checkpoint to" in capsys.readouterr().err
