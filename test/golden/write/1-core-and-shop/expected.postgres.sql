INSERT INTO "public"."tags" ("id", "name") VALUES ($1, $2) RETURNING "id", "name";

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM "public"."tags" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;

UPDATE "public"."tags" AS "t0" SET "name" = $1 WHERE "t0"."id" = CAST($2 AS integer);
