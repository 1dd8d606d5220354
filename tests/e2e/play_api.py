"""Games played through a page's own API calls, for the browser tests that need a game
already under way."""

# Today's daily of a tier (or any game a POST /api/games/ body starts) played through the
# page's own API calls (its session and CSRF cookie), along the known winning line: the
# drag-and-drop client is tested in test_play.py.
PLAY_DAILY = """async ([start, moves]) => {
  const csrf = decodeURIComponent(document.cookie.match(/(?:^|;\\s*)csrftoken=([^;]+)/)[1]);
  const post = async (url, data) => {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(data),
      headers: {
        "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json",
      },
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const game = await post("/api/games/", typeof start === "string" ? {daily: start} : start);
  for (let ply = 0; ply < moves.length; ply += 1) {
    await post(`/api/games/${game.id}/moves/`, {ply, move: moves[ply]});
  }
  return game.id;
}"""
