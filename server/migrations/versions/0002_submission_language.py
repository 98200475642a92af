"""submissions.language: the language the grader's report on a submission speaks

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    # Submissions made before there was a choice were graded in English: they say "en".
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(
            sa.Column("language", sa.String(length=5), server_default="en", nullable=False)
        )


def downgrade():
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("language")
