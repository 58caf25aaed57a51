-- Where a learned answer acts (issue 46, finding 5): a JSON object from each
-- repository the answer was seen in (its identity, dp.learn.answer.repository)
-- to the number of sessions there. Only a plain rename (python -> python3,
-- rg -> grep: dp.learn.carry.plain_rename) acts in every repository; any other
-- answer acts only in these. Rows learned before this column have NULL here
-- and act nowhere until the next learning pass (dp ingest, dp suggest) learns
-- them again from the captured calls, which keep their working directories.
ALTER TABLE learned ADD COLUMN scope TEXT;
