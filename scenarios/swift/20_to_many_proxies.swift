// A to-many relationship observed through mutableArrayValue(forKey:): each
// insertion and removal arrives with its kind and indexes, which Swift's
// change gives as an IndexSet.
import Foundation

class Playlist: NSObject {
    @objc dynamic var songs: [String] = []
}

let playlist = Playlist()
let token = playlist.observe(\.songs, options: [.new, .old]) { _, change in
    let indexes = change.indexes.map { Array($0) } ?? []
    print(change.kind.rawValue, indexes, change.newValue ?? [], change.oldValue ?? [])
}
let songs = playlist.mutableArrayValue(forKey: "songs")
songs.add("Intro")
songs.add("Theme")
songs.insert("Overture", at: 0)
songs.removeObject(at: 1)
playlist.songs = ["Finale"]
print(playlist.songs, songs.count)
