import Foundation

class Playlist: NSObject {
    @objc dynamic var songs: [String] = []
    func add(_ song: String) {
        willChange(.insertion, valuesAt: [songs.count], for: \.songs)
        songs.append(song)
        didChange(.insertion, valuesAt: [songs.count - 1], for: \.songs)
    }
}
